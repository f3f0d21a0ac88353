import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  holdsCompatible,
  holdsInTheWay,
  type TableHold,
  type TableHoldMode,
  wantsOf,
} from '../src/core/intentionLocks';

const whole: TableHoldMode = { mode: 'whole' };
const referenced: TableHoldMode = { mode: 'referenced' };
const rows = (...values: string[]): TableHoldMode => ({ mode: 'rows', rows: values });

describe('holdsCompatible: two holds of one table', () => {
  it.each([
    ['whole', whole, 'whole', whole, false],
    ['whole', whole, 'rows 11', rows('11'), false],
    ['whole', whole, 'referenced', referenced, false],
    ['rows 11', rows('11'), 'rows 21', rows('21'), true],
    ['rows 11, 12', rows('11', '12'), 'rows 12, 13', rows('12', '13'), false],
    ['rows 11', rows('11'), 'rows 11', rows('11'), false],
    ['rows 11', rows('11'), 'referenced', referenced, false],
    ['referenced', referenced, 'referenced', referenced, true],
  ])('%s beside %s: %s', (_a, a, _b, b, compatible) => {
    expect(holdsCompatible(a, b)).toBe(compatible);
    // The matrix is symmetric: who came first does not matter.
    expect(holdsCompatible(b, a)).toBe(compatible);
  });
});

describe('holdsInTheWay', () => {
  const holds: TableHold[] = [
    { table: 'products', holder: 'alice', hold: rows('11') },
    { table: 'products', holder: 'bob', hold: rows('21', '22') },
    { table: 'suppliers', holder: 'products', hold: referenced },
  ];

  it('lets a row scope of other values in beside both, sharing the referenced table', () => {
    expect(holdsInTheWay(wantsOf('products', ['31'], ['suppliers']), holds)).toEqual([]);
  });

  it('names the one scope whose values overlap', () => {
    expect(holdsInTheWay(wantsOf('products', ['22', '31'], ['suppliers']), holds)).toEqual([
      holds[1],
    ]);
  });

  it('names every scope in the way of the whole table', () => {
    expect(holdsInTheWay(wantsOf('products', null, ['suppliers']), holds)).toEqual([
      holds[0],
      holds[1],
    ]);
  });

  it('keeps a table edited in rows from being locked as a reference, and the other way round', () => {
    expect(holdsInTheWay(wantsOf('price_list_items', null, ['products']), holds)).toEqual([
      holds[0],
      holds[1],
    ]);
    expect(holdsInTheWay(wantsOf('suppliers', ['7'], []), holds)).toEqual([holds[2]]);
  });

  it('never wants its own table as a reference (a self-reference)', () => {
    expect(wantsOf('categories', ['3'], ['categories'])).toEqual([
      { table: 'categories', hold: rows('3') },
    ]);
  });
});

/**
 * The reference model: each hold spelled out as Gray's modes on single resources (the table,
 * and each value of its row-lock column as a key range of its own), judged by the textbook
 * matrix. Two holds stand together when every resource both touch has compatible modes.
 */
type GrayMode = 'IX' | 'S' | 'X';
const GRAY_COMPATIBLE: Record<GrayMode, GrayMode[]> = { IX: ['IX'], S: ['S'], X: [] };

function grayModes(table: string, hold: TableHoldMode): Map<string, GrayMode> {
  switch (hold.mode) {
    case 'whole':
      return new Map([[table, 'X']]);
    case 'referenced':
      return new Map([[table, 'S']]);
    case 'rows':
      return new Map<string, GrayMode>([
        [table, 'IX'],
        ...hold.rows.map((value): [string, GrayMode] => [`${table}#${value}`, 'X']),
      ]);
  }
}

function grayCompatible(table: string, a: TableHoldMode, b: TableHoldMode): boolean {
  const modesOfB = grayModes(table, b);
  return [...grayModes(table, a)].every(([resource, mode]) => {
    const other = modesOfB.get(resource);
    return other === undefined || GRAY_COMPATIBLE[mode].includes(other);
  });
}

const values = fc.uniqueArray(fc.constantFrom('1', '2', '3', '4', '5', '6', '7', '8', '9', '10'), {
  minLength: 1,
  maxLength: 4,
});
const holdMode: fc.Arbitrary<TableHoldMode> = fc.oneof(
  fc.constant(whole),
  fc.constant(referenced),
  values.map((chosen): TableHoldMode => ({ mode: 'rows', rows: chosen })),
);

describe('against the reference model', () => {
  it('agrees with Gray’s matrix on every pair of holds', () => {
    fc.assert(
      fc.property(holdMode, holdMode, (a, b) => {
        expect(holdsCompatible(a, b)).toBe(grayCompatible('t', a, b));
      }),
      { numRuns: 2_000 },
    );
  });

  it('finds exactly the holds the model finds in the way of any acquisition', () => {
    const tables = fc.constantFrom('t0', 't1', 't2');
    const hold = fc.record({
      table: tables,
      holder: fc.constantFrom('alice', 'bob'),
      hold: holdMode,
    });
    const want = fc.record({
      table: tables,
      rows: fc.option(values, { nil: null }),
      references: fc.subarray(['t0', 't1', 't2']),
    });
    fc.assert(
      fc.property(want, fc.array(hold, { maxLength: 8 }), (asked, holds) => {
        const wants = wantsOf(asked.table, asked.rows, asked.references);
        const expected = holds.filter((held) =>
          wants.some(
            (wanted) =>
              wanted.table === held.table && !grayCompatible(held.table, wanted.hold, held.hold),
          ),
        );
        expect(holdsInTheWay(wants, holds)).toEqual(expected);
      }),
      { numRuns: 1_000 },
    );
  });
});
