import { useTranslation } from 'react-i18next';
import type { RowFilter } from '../generated/graphql';
import { ApplyOnDialog } from '../schedule/ApplyOnDialog';
import type { Schedule } from '../schedule/ApplyOnForm';
import { LockBreakDialog } from '../tables/LockBreakDialog';
import type { TableInfo } from '../tables/useTables';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { type Submission, SubmitForApprovalDialog } from './changes/SubmitForApprovalDialog';
import { StartEditingDialog } from './lock/StartEditingDialog';
import { RowScopeDialog } from './scope/RowScopeDialog';
import type { RowScope } from './scope/rowScopeOf';
import type { EditDialog } from './useEditActions';

interface EditDialogsProps {
  open: EditDialog | null;
  info: TableInfo;
  tables: readonly TableInfo[];
  busy: boolean;
  unsaved: number;
  /** Takes the lock: with a reason, over from whoever holds it. */
  onTakeLock: (takeOverReason: string | null) => void;
  /** The table's row scopes, on a table with a row-lock column. */
  scope: RowScope | null;
  /** The table's columns: whether the row-lock column is a reference. */
  columns: readonly { name: string; references?: string | null }[];
  /** The grid's filter, which a new row scope may start from. */
  filter: readonly RowFilter[];
  /** Takes a row scope of those values. */
  onTakeRows: (rows: readonly string[]) => void;
  onFinish: () => void;
  onDiscard: () => void;
  onSubmit: (submission: Submission) => void;
  onSchedule: (schedule: Schedule) => void;
  /** Why the server refused the last "Apply on…" (null: it did not). */
  scheduleError: unknown;
  onCancel: () => void;
}

/** The confirmations of the edit session's steps, one open at a time. */
export function EditDialogs({ open, info, busy, unsaved, onCancel, ...props }: EditDialogsProps) {
  const { t } = useTranslation();
  return (
    <>
      <StartEditingDialog
        open={open === 'start'}
        table={info}
        tables={props.tables}
        busy={busy}
        onConfirm={() => props.onTakeLock(null)}
        onCancel={onCancel}
      />
      {open === 'rows' && props.scope && (
        <RowScopeDialog
          table={info.name}
          scope={props.scope}
          reference={props.columns.some(
            (column) => column.name === props.scope?.column && Boolean(column.references),
          )}
          filter={props.filter}
          busy={busy}
          onConfirm={props.onTakeRows}
          onCancel={onCancel}
        />
      )}
      {open === 'takeOver' && (
        <LockBreakDialog
          kind="takeOver"
          table={info}
          busy={busy}
          onConfirm={(reason) => props.onTakeLock(reason)}
          onCancel={onCancel}
        />
      )}
      <ConfirmDialog
        open={open === 'finish'}
        title={t('finishEditing.title')}
        confirmLabel={t('finishEditing.confirm')}
        cancelLabel={t('finishEditing.keepEditing')}
        tone="danger"
        busy={busy}
        onConfirm={props.onFinish}
        onCancel={onCancel}
      >
        <p>{t('finishEditing.unsaved', { count: unsaved })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={open === 'discard'}
        title={t('discard.title')}
        confirmLabel={t('discard.confirm')}
        tone="danger"
        onConfirm={props.onDiscard}
        onCancel={onCancel}
      >
        <p>{t('discard.message', { count: unsaved })}</p>
      </ConfirmDialog>
      <SubmitForApprovalDialog
        open={open === 'submit'}
        unsaved={unsaved}
        busy={busy}
        onSubmit={props.onSubmit}
        onCancel={onCancel}
      />
      <ApplyOnDialog
        open={open === 'schedule'}
        unsaved={unsaved}
        needsApproval={info.policy.changesNeedApproval}
        busy={busy}
        error={props.scheduleError}
        onSchedule={props.onSchedule}
        onCancel={onCancel}
      />
    </>
  );
}
