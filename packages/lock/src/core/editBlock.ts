import type { Blocker } from './blocker';
import { holdsInTheWay, type TableHold, wantsOf } from './intentionLocks';
import { lineAheadOf, lineBlockers } from './lineForTable';
import type { LockRow } from './lockRow';
import { DEFAULT_TABLE_RULES, type EditorRights, mayEdit, type TableRules } from './tableRules';
import type { TableStatus } from './tableStatus';
import type { Waiter } from './waiter';

/**
 * Why a table cannot be edited now, as data: words are chosen where it is shown.
 * - `beingEdited`: the table itself is (the one blocker);
 * - `lockedByEditing`: it is `locked` (a shared lock) because the blockers are being edited;
 * - `referenceBeingEdited`: tables it references are, and starting would lock them;
 * - `queued`: nothing is, but the blockers are in line for it first (the tables they wait for);
 * - `readOnly`: its policy makes it read-only, or leaves it out of locking (no blockers);
 * - `frozen`: an admin froze it (the one blocker: the table; `reason` says why);
 * - `notAllowed`: its policy names who may edit it, and the caller is not among them.
 */
export interface EditBlock {
  kind:
    | 'beingEdited'
    | 'lockedByEditing'
    | 'referenceBeingEdited'
    | 'queued'
    | 'readOnly'
    | 'frozen'
    | 'notAllowed';
  blockers: Blocker[];
  /** For `frozen`: the freeze's reason. */
  reason?: string;
}

/** What the rule looks at in a table's lock row. */
type LockState = Pick<LockRow, 'tableName' | 'status' | 'editor' | 'lockedBy' | 'rowScopes'>;

/**
 * What an admin's rules for `table` forbid, whatever its lock state: read-only (or out of
 * locking), frozen, or (when `rights` are given) not among those who may edit it.
 */
export function policyBlockOf(
  table: Pick<LockRow, 'tableName' | 'rules'>,
  rights?: EditorRights | null,
): EditBlock | null {
  const rules = table.rules ?? DEFAULT_TABLE_RULES;
  if (rules.readOnly || !rules.takesPartInLocking) return { kind: 'readOnly', blockers: [] };
  if (rules.frozen) {
    return {
      kind: 'frozen',
      blockers: [{ table: table.tableName, editor: null }],
      reason: rules.frozen.reason,
    };
  }
  if (rights && !mayEdit(rules, rights)) return { kind: 'notAllowed', blockers: [] };
  return null;
}

/**
 * Why `table` cannot be edited, or null: the rule acquisitions are decided by and the one every
 * reader is shown. `referenced` are the rows of the tables it would lock; `editorOf` names the
 * editor of a holder table, where the caller has its row. Who is in the way is decided by the
 * intention-lock matrix (intentionLocks.ts): editing the whole table wants X on it, a row scope
 * (`rows`: values of its row-lock column) IX on it and X on the values, and either S on every
 * table it references.
 */
export function editBlockOf(
  table: LockState,
  referenced: readonly LockState[],
  editorOf: (tableName: string) => string | null,
  rows: readonly string[] | null = null,
): EditBlock | null {
  const wants = wantsOf(
    table.tableName,
    rows,
    referenced.map((row) => row.tableName),
  );
  const inTheWay = holdsInTheWay(wants, [table, ...referenced].flatMap(holdsOf));
  if (inTheWay.length === 0) return null;
  const onTable = inTheWay.filter((held) => held.table === table.tableName);
  const referencedHolds = onTable.filter((held) => held.hold.mode === 'referenced');
  if (onTable.length > 0 && referencedHolds.length === onTable.length) {
    return {
      kind: 'lockedByEditing',
      blockers: referencedHolds.map(({ holder }) => ({ table: holder, editor: editorOf(holder) })),
    };
  }
  if (onTable.length > 0) return { kind: 'beingEdited', blockers: onTable.map(blockerOf) };
  return { kind: 'referenceBeingEdited', blockers: inTheWay.map(blockerOf) };
}

/** An editor in the way: of the whole table, or of rows of it (then with the values). */
function blockerOf(held: TableHold): Blocker {
  const editor = held.holder === '' ? null : held.holder;
  return held.hold.mode === 'rows'
    ? { table: held.table, editor, rows: [...held.hold.rows] }
    : { table: held.table, editor };
}

/**
 * A table's holds as its lock row records them: its editor's whole table while `editing`, a
 * reference of each holder table while `locked`, and its row scopes.
 */
function holdsOf(row: LockState): TableHold[] {
  const scopes = (row.rowScopes ?? []).map(
    (scope): TableHold => ({
      table: row.tableName,
      holder: scope.editor,
      hold: { mode: 'rows', rows: scope.rows },
    }),
  );
  if (row.status === 'editing') {
    return [{ table: row.tableName, holder: row.editor ?? '', hold: { mode: 'whole' } }, ...scopes];
  }
  if (row.status !== 'locked') return scopes;
  return [
    ...row.lockedBy.map(
      (holder): TableHold => ({ table: row.tableName, holder, hold: { mode: 'referenced' } }),
    ),
    ...scopes,
  ];
}

/** A table as everyone sees it (see TableInfo): what editBlockFor makes personal. */
export interface SharedTableView {
  name: string;
  status: TableStatus;
  editor: string | null;
  rules: TableRules;
  /** Why nobody can start editing it now (its editor aside), the line not counted. */
  editBlock: EditBlock | null;
  /** Everyone in line who goes before anyone who starts editing it, first in line first. */
  inLine: readonly Waiter[];
}

// What stands in anyone's way whatever their lock state: the caller's own rights come next.
const RULE_BLOCKS: ReadonlySet<EditBlock['kind']> = new Set(['readOnly', 'frozen']);

/**
 * Why `caller` (null: nobody signed in) cannot start editing `table` now, or null. The editor
 * is not blocked by its own editing (nor by a freeze since): it is editing already. A caller
 * the table's policy leaves out is `notAllowed` (viewers are never editors, so never that);
 * on a free table, those in line before the caller go first.
 */
export function editBlockFor(
  caller: { name: string; rights: EditorRights } | null,
  table: SharedTableView,
): EditBlock | null {
  const name = caller?.name ?? null;
  if (table.status === 'editing' && table.editor === name) return null;
  if (table.editBlock && RULE_BLOCKS.has(table.editBlock.kind)) return table.editBlock;
  if (caller && caller.rights.role !== 'viewer' && !mayEdit(table.rules, caller.rights)) {
    return { kind: 'notAllowed', blockers: [] };
  }
  if (table.editBlock) return table.editBlock;
  const ahead = name ? lineAheadOf(table.inLine, table.name, name) : table.inLine;
  return ahead.length > 0 ? { kind: 'queued', blockers: lineBlockers(ahead, table.name) } : null;
}
