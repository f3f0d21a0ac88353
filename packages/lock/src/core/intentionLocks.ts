/**
 * What each kind of hold takes on one table, after Gray's intention locks (the IS/IX/S/SIX/X
 * matrix of SQL Server and SAP's enqueue, with the row-lock column's values as key ranges):
 *
 * - `whole`: the whole table edited: X on the table.
 * - `rows`: the rows whose row-lock column has one of `rows` edited: IX on the table, X on each
 *   of those values.
 * - `referenced`: the table locked because a table being edited (whole or rows) references it:
 *   S on the whole table.
 */
export type TableHoldMode =
  | { mode: 'whole' }
  | { mode: 'rows'; rows: readonly string[] }
  | { mode: 'referenced' };

/** One hold on one table, and who holds it (an editor; for `referenced`, the holder's table). */
export interface TableHold {
  table: string;
  holder: string;
  hold: TableHoldMode;
}

/** One table an acquisition wants, and how. */
export interface TableWant {
  table: string;
  hold: TableHoldMode;
}

/**
 * Whether two holds of one table can stand together. S is shared with S; IX with IX when their
 * values are disjoint; X with nothing, and IX not with S (a reference reads the whole table).
 */
export function holdsCompatible(a: TableHoldMode, b: TableHoldMode): boolean {
  if (a.mode === 'referenced' && b.mode === 'referenced') return true;
  if (a.mode === 'rows' && b.mode === 'rows') return !overlap(a.rows, b.rows);
  return false;
}

/**
 * What an acquisition of `table` wants: the table itself, whole or the rows given (`rows`:
 * null for the whole table), and S on every table it references (its FK targets).
 */
export function wantsOf(
  table: string,
  rows: readonly string[] | null,
  references: readonly string[],
): TableWant[] {
  return [
    { table, hold: rows === null ? { mode: 'whole' } : { mode: 'rows', rows } },
    ...references
      .filter((target) => target !== table)
      .map((target): TableWant => ({ table: target, hold: { mode: 'referenced' } })),
  ];
}

/** Every hold in the way of `wants`: on a table wanted, and not compatible with the want. */
export function holdsInTheWay(
  wants: readonly TableWant[],
  holds: readonly TableHold[],
): TableHold[] {
  return holds.filter((held) =>
    wants.some((want) => want.table === held.table && !holdsCompatible(want.hold, held.hold)),
  );
}

function overlap(a: readonly string[], b: readonly string[]): boolean {
  const values = new Set(a);
  return b.some((value) => values.has(value));
}
