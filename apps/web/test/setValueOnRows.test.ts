import { describe, expect, it } from 'vitest';
import type { GridRow } from '../src/table/changes/gridRow';
import { PendingChanges } from '../src/table/changes/PendingChanges';
import { setValueOnRows } from '../src/table/changes/setValueOnRows';
import type { ColumnRules } from '../src/table/changes/validateValue';

const price: ColumnRules = {
  name: 'price',
  dataType: 'numeric(12,2)',
  kind: 'decimal',
  nullable: true,
  hasDefault: false,
};

const stored = (id: string): GridRow => ({
  id,
  key: { id },
  version: 'v1',
  values: { id, price: '1.00' },
});

describe('setValueOnRows', () => {
  it('writes the value as typed into every row but the deleted ones, as one undo step', () => {
    const pending = new PendingChanges([price]);
    const [a, b, gone] = [stored('1'), stored('2'), stored('3')];
    pending.delete([gone]);
    setValueOnRows(pending, [a, b, gone], price, ' 1,250.5 ');
    expect([a, b, gone].map((row) => row.values.price)).toEqual(['1250.5', '1250.5', '1.00']);
    pending.undo();
    expect([a, b].map((row) => row.values.price)).toEqual(['1.00', '1.00']);
    expect(pending.stateOf('3')).toBe('deleted');
  });

  it('writes NULL for an empty value', () => {
    const pending = new PendingChanges([price]);
    const row = stored('1');
    setValueOnRows(pending, [row], price, '');
    expect(row.values.price).toBeNull();
  });
});
