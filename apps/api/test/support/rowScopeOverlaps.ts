/**
 * A hold of products as a client saw it: its values of the row-lock column (null: the whole
 * table) and a span of time within which it surely held them, on the test's monotonic clock.
 */
export interface ObservedHold {
  holder: string;
  token: string;
  rows: readonly string[] | null;
  from: number;
  to: number;
}

/** One live row scope as a snapshot of `tablelock.row_lock` shows it. */
export interface SnapshotScope {
  editor: string;
  rows: string[];
  token: string;
}

/** Whether two holds' values meet: the whole table meets everything. */
export function valuesOverlap(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return true;
  return a.some((value) => b.includes(value));
}

/**
 * Every two holds whose values meet and whose spans of time intersect. A span that ends before
 * it begins (the holder was force-released before its grant's answer arrived) held nothing seen.
 */
export function overlappingHolds(holds: readonly ObservedHold[]): string[] {
  const byStart = holds.filter((hold) => hold.from < hold.to).sort((a, b) => a.from - b.from);
  const overlaps: string[] = [];
  for (const [i, first] of byStart.entries()) {
    for (const second of byStart.slice(i + 1)) {
      if (second.from >= first.to) break;
      if (valuesOverlap(first.rows, second.rows)) {
        overlaps.push(
          `${describe(first)} and ${describe(second)} held at once for ${(
            Math.min(first.to, second.to) - second.from
          ).toFixed(1)} ms`,
        );
      }
    }
  }
  return overlaps;
}

/** What one snapshot of a table's holds shows wrong: two scopes that meet, a scope beside the whole. */
export function snapshotOverlaps(
  scopes: readonly SnapshotScope[],
  wholeEditor: string | null,
): string[] {
  const overlaps: string[] = [];
  for (const [i, first] of scopes.entries()) {
    for (const second of scopes.slice(i + 1)) {
      if (valuesOverlap(first.rows, second.rows)) {
        overlaps.push(
          `scopes ${first.token} (${first.editor}: ${first.rows}) and ${second.token} (${second.editor}: ${second.rows}) live at once`,
        );
      }
    }
    if (wholeEditor !== null) {
      overlaps.push(
        `scope ${first.token} (${first.editor}) live beside ${wholeEditor}'s whole-table edit`,
      );
    }
  }
  return overlaps;
}

const describe = (hold: ObservedHold) =>
  `${hold.holder}'s ${hold.rows === null ? 'whole table' : `rows ${hold.rows.join(',')}`} (token ${hold.token})`;
