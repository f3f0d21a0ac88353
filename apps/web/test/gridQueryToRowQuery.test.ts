import { describe, expect, it } from 'vitest';
import { toRowFilters, toRowSort } from '../src/table/grid/gridQueryToRowQuery';

describe('toRowFilters', () => {
  it('maps the grid filters to the API operators', () => {
    expect(
      toRowFilters({
        name: { filterType: 'text', type: 'contains', filter: 'tea' },
        price: { filterType: 'number', type: 'inRange', filter: 10, filterTo: 20 },
        launched_on: { filterType: 'date', type: 'lessThan', dateFrom: '2020-01-31 00:00:00' },
        active: { filterType: 'text', type: 'isFalse' },
        note: { filterType: 'text', type: 'blank' },
      }),
    ).toEqual([
      { column: 'name', operator: 'contains', value: 'tea' },
      { column: 'price', operator: 'greaterThanOrEqual', value: '10' },
      { column: 'price', operator: 'lessThanOrEqual', value: '20' },
      { column: 'launched_on', operator: 'lessThan', value: '2020-01-31' },
      { column: 'active', operator: 'equals', value: 'false' },
      { column: 'note', operator: 'isNull', value: null },
    ]);
  });

  it('maps the sort model to the API sort', () => {
    expect(toRowSort([{ colId: 'name', sort: 'desc' }])).toEqual([
      { column: 'name', direction: 'desc' },
    ]);
  });
});
