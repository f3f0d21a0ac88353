import { z } from 'zod';
import { LockError } from '../core/lockError';
import { TableStatus } from '../core/tableStatus';

/** Postgres truncates identifiers at 63 bytes; a longer name cannot be a table. */
const MAX_TABLE_NAME_LENGTH = 63;
export const MAX_FK_TABLES = 64;
const MAX_EDITOR_LENGTH = 200;

const tableName = z.string().min(1).max(MAX_TABLE_NAME_LENGTH);
const status = z.enum(TableStatus);

/** The legacy contract's `UpdateTableStatusWithLockInput`, in the domain's spelling. */
export const tableStatusChangeSchema = z
  .object({
    tableName,
    currentStatus: status,
    targetStatus: status,
    fkTableNames: z.array(tableName).max(MAX_FK_TABLES).nullish(),
    fkCurrentStatus: status.nullish(),
    fkTargetStatus: status.nullish(),
    editor: z.string().trim().min(1).max(MAX_EDITOR_LENGTH).nullish(),
  })
  .strict();

export type TableStatusChange = z.input<typeof tableStatusChangeSchema>;

/** What a valid legacy request asks for: an acquisition or a release (the lease is added later). */
export interface LegacyLockIntent {
  kind: 'acquire' | 'release';
  tableName: string;
  /** FK tables the caller named, in the caller's order, without repeats. */
  namedFkTables: string[];
  editor: string;
}

/** Validates a change request and says what it means; anything impossible is a LockError. */
export function parseLockRequest(change: TableStatusChange): LegacyLockIntent {
  const parsed = tableStatusChangeSchema.safeParse(change);
  if (!parsed.success) {
    throw new LockError('BAD_USER_INPUT', z.prettifyError(parsed.error));
  }
  const input = parsed.data;
  const kind = mainTransition(input.currentStatus, input.targetStatus);
  const namedFkTables = [...new Set(input.fkTableNames ?? [])];
  if (namedFkTables.includes(input.tableName)) {
    throw new LockError('BAD_USER_INPUT', 'fk_table_name must not contain table_name itself.');
  }
  const fkGiven = [input.fkCurrentStatus, input.fkTargetStatus].filter((s) => s != null).length;
  if (fkGiven === 1 || (namedFkTables.length > 0 && fkGiven === 0)) {
    throw new LockError(
      'BAD_USER_INPUT',
      'fk_table_name needs both fk_current_status and fk_target_status, and they come together.',
    );
  }
  if (input.fkCurrentStatus && input.fkTargetStatus) {
    checkFkTransition(kind, input.fkCurrentStatus, input.fkTargetStatus);
  }
  if (!input.editor) {
    throw new LockError('BAD_USER_INPUT', 'editor is required: it names who holds the lock.');
  }
  return { kind, tableName: input.tableName, namedFkTables, editor: input.editor };
}

function mainTransition(from: TableStatus, to: TableStatus): LegacyLockIntent['kind'] {
  if (from === 'normal' && to === 'editing') return 'acquire';
  if (from === 'editing' && to === 'normal') return 'release';
  throw new LockError(
    'INVALID_TRANSITION',
    `A table can move normal → editing (start editing) or editing → normal (finish), not ${from} → ${to}.`,
  );
}

// `locked` is a shared mode: an acquisition joins the holders of an already locked FK table, so
// `normal → locked` and `locked → locked` both mean "lock it for me too".
function checkFkTransition(
  kind: LegacyLockIntent['kind'],
  from: TableStatus,
  to: TableStatus,
): void {
  const valid =
    kind === 'acquire'
      ? to === 'locked' && (from === 'normal' || from === 'locked')
      : from === 'locked' && to === 'normal';
  if (!valid) {
    const expected = kind === 'acquire' ? 'normal → locked or locked → locked' : 'locked → normal';
    throw new LockError(
      'INVALID_TRANSITION',
      `When table_name moves ${kind === 'acquire' ? 'normal → editing' : 'editing → normal'}, FK tables move ${expected}, not ${from} → ${to}.`,
    );
  }
}
