import { LockError } from './lockError';
import type { LockIntent } from './lockRequest';
import type { LockRow } from './lockRow';

export type LockPlan = { granted: true; changes: LockRow[] } | { granted: false };

/**
 * The state machine: given the rows of every table involved (read in one snapshot),
 * decides whether the intent's conditions hold and, if so, what every changed row becomes.
 * Pure, so every rule can be tested without a database.
 */
export function planLockChange(intent: LockIntent, rows: ReadonlyMap<string, LockRow>): LockPlan {
  const main = requireRow(rows, intent.tableName);
  return intent.kind === 'acquire'
    ? planAcquire(intent, main, rows)
    : planRelease(intent, main, rows);
}

/** The FK tables an intent covers: those the caller named, then the discovered ones. */
export function fkTablesOf(intent: LockIntent, main: LockRow): string[] {
  const named = new Set(intent.namedFkTables);
  const discovered = main.references.filter(
    (name) => !named.has(name) && name !== intent.tableName,
  );
  return [...intent.namedFkTables, ...discovered];
}

function planAcquire(
  intent: LockIntent,
  main: LockRow,
  rows: ReadonlyMap<string, LockRow>,
): LockPlan {
  if (main.status !== 'normal') return { granted: false };
  const fkRows = fkTablesOf(intent, main).map((name) => requireRow(rows, name));
  if (fkRows.some((row) => row.status === 'editing')) return { granted: false };
  return {
    granted: true,
    changes: [
      { ...main, status: 'editing', editor: intent.editor, lockedBy: [] },
      ...fkRows.map(
        (row): LockRow => ({
          ...row,
          status: 'locked',
          editor: null,
          lockedBy: [...new Set([...row.lockedBy, intent.tableName])].sort(),
        }),
      ),
    ],
  };
}

function planRelease(
  intent: LockIntent,
  main: LockRow,
  rows: ReadonlyMap<string, LockRow>,
): LockPlan {
  if (main.status !== 'editing') return { granted: false };
  if (main.editor !== intent.editor) {
    throw new LockError(
      'FORBIDDEN',
      `${intent.tableName} is being edited by ${main.editor}; only the holder can release it.`,
    );
  }
  const isHeld = (row: LockRow) => row.lockedBy.includes(intent.tableName);
  const namedRows = intent.namedFkTables.map((name) => requireRow(rows, name));
  if (!namedRows.every(isHeld)) return { granted: false };
  // Every hold of this table goes, wherever it is: also on tables it no longer references.
  const heldRows = [...rows.values()].filter(isHeld);
  return {
    granted: true,
    changes: [
      { ...main, status: 'normal', editor: null },
      ...heldRows.map((row): LockRow => {
        const lockedBy = row.lockedBy.filter((holder) => holder !== intent.tableName);
        return { ...row, status: lockedBy.length > 0 ? 'locked' : 'normal', lockedBy };
      }),
    ],
  };
}

function requireRow(rows: ReadonlyMap<string, LockRow>, name: string): LockRow {
  const row = rows.get(name);
  if (!row) throw new LockError('TABLE_NOT_FOUND', `No master table is named ${name}.`);
  return row;
}
