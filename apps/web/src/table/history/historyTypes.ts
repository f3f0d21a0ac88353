import type {
  ChangeKind,
  ChangeSetFilter,
  RowOperation,
  TableChangesQuery,
} from '../../generated/graphql';

export type { ChangeKind, ChangeSetFilter, RowOperation };

export type RowValues = Record<string, string | null>;

export type ChangeSummary = TableChangesQuery['tableChanges']['changes'][number];

export const CHANGE_KINDS: readonly ChangeKind[] = [
  'save',
  'import',
  'revert',
  'locked_write',
  'unlocked_write',
];

/** Who wrote a change: the tablelock user or key, else the database role. */
export const writerOf = (change: { actor: string | null; dbRole: string }) =>
  change.actor ?? change.dbRole;

export { keyText } from '../../ui/rowKeyText';
