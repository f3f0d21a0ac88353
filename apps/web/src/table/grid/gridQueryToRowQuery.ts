import type { SortModelItem } from 'ag-grid-community';
import type { FilterOperator, RowFilter, RowSort } from '../../generated/graphql';

/** A column filter as the grid's text, number and date filters describe it (one condition). */
interface SimpleFilterModel {
  filterType?: string;
  type?: string | null;
  filter?: string | number | null;
  filterTo?: number | null;
  dateFrom?: string | null;
  dateTo?: string | null;
}

/** Filter options the grid offers, and the API operator each becomes. */
const FILTER_OPERATORS = {
  contains: 'contains',
  equals: 'equals',
  notEqual: 'notEquals',
  startsWith: 'startsWith',
  lessThan: 'lessThan',
  lessThanOrEqual: 'lessThanOrEqual',
  greaterThan: 'greaterThan',
  greaterThanOrEqual: 'greaterThanOrEqual',
  blank: 'isNull',
  notBlank: 'isNotNull',
} as const satisfies Record<string, FilterOperator>;

/** Our own options for boolean columns, which the grid has no filter for. */
export const BOOLEAN_FILTER_OPTIONS = { isTrue: 'true', isFalse: 'false' } as const;

function operand(model: SimpleFilterModel): string | null {
  if (model.dateFrom) return model.dateFrom.slice(0, 10);
  return model.filter === null || model.filter === undefined ? null : String(model.filter);
}

/** The grid's filter model as the API's row filters; combined (OR) conditions are not offered. */
export function toRowFilters(filterModel: Record<string, SimpleFilterModel> | null): RowFilter[] {
  const filters: RowFilter[] = [];
  for (const [column, model] of Object.entries(filterModel ?? {})) {
    const type = model.type ?? '';
    if (type in BOOLEAN_FILTER_OPTIONS) {
      const value = BOOLEAN_FILTER_OPTIONS[type as keyof typeof BOOLEAN_FILTER_OPTIONS];
      filters.push({ column, operator: 'equals', value });
    } else if (type === 'inRange') {
      const to = model.dateTo ? model.dateTo.slice(0, 10) : String(model.filterTo ?? '');
      filters.push({ column, operator: 'greaterThanOrEqual', value: operand(model) });
      filters.push({ column, operator: 'lessThanOrEqual', value: to });
    } else if (type in FILTER_OPERATORS) {
      const operator = FILTER_OPERATORS[type as keyof typeof FILTER_OPERATORS];
      const needsValue = operator !== 'isNull' && operator !== 'isNotNull';
      filters.push({ column, operator, value: needsValue ? operand(model) : null });
    }
  }
  return filters;
}

export function toRowSort(sortModel: readonly SortModelItem[]): RowSort[] {
  return sortModel.map(({ colId, sort }) => ({ column: colId, direction: sort }));
}
