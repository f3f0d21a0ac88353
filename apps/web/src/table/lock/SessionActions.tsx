import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { type EditBlock, editBlockMessage } from '../../tables/editBlockMessage';

interface SessionActionsProps {
  /** What the session allows: starting (a viewer who may edit), or working on the edits. */
  mode: 'start' | 'edit' | null;
  /** Why starting is not possible now. */
  block: EditBlock | null;
  mayTakeOver: boolean;
  /** The user is in the line for the table: its banner offers starting when their turn comes. */
  inLine: boolean;
  lockLost: boolean;
  /** The table's policy needs approval: Save submits the edits as a change request. */
  needsApproval: boolean;
  busy: boolean;
  unsaved: number;
  invalid: number;
  onStart: () => void;
  /** "Edit these rows": a row scope, on a table that has a row-lock column (else null). */
  onStartRows: (() => void) | null;
  /** Whether a row scope may be asked for now (only others' scopes, if anything, in the way). */
  rowsOpen: boolean;
  /** Joins the line for the table ("notify me when free"). */
  onNotify: () => void;
  onTakeOver: () => void;
  /** The Start editing and Take over buttons, for what stands in for pressing them. */
  startButton: RefObject<HTMLButtonElement | null>;
  takeOverButton: RefObject<HTMLButtonElement | null>;
  onDiscard: () => void;
  onSave: () => void;
  /** "Apply on…": the edits take effect at a time to come. */
  onSchedule: () => void;
  onFinish: () => void;
}

// Blocks only an admin ends: waiting in line for a policy's change would never end, and the
// API refuses a place in line for a frozen table (TABLE_FROZEN).
const NO_WAIT_ENDS = new Set<EditBlock['kind']>(['readOnly', 'notAllowed', 'frozen']);

/** The page header's buttons for the edit session. */

export function SessionActions(props: SessionActionsProps) {
  const { t } = useTranslation();
  const { busy, unsaved } = props;
  if (props.mode === 'start') {
    return (
      <>
        {props.block && <span className="block-reason">{editBlockMessage(props.block, t)}</span>}
        {props.block && !props.inLine && !NO_WAIT_ENDS.has(props.block.kind) && (
          <button
            type="button"
            className="button"
            title={t('queue.notifyHint')}
            disabled={busy}
            onClick={props.onNotify}
          >
            {t('queue.notify')}
          </button>
        )}
        {props.mayTakeOver && (
          <button
            ref={props.takeOverButton}
            type="button"
            className="button danger"
            disabled={busy}
            onClick={props.onTakeOver}
          >
            {t('takeOver.action')}
          </button>
        )}
        {props.onStartRows && (
          <button
            type="button"
            className="button"
            disabled={!props.rowsOpen || busy}
            onClick={props.onStartRows}
          >
            {t('rowScope.action')}
          </button>
        )}
        {!props.inLine && (
          <button
            ref={props.startButton}
            type="button"
            className="button primary"
            disabled={props.block !== null || busy}
            onClick={props.onStart}
          >
            {t('table.startEditing')}
          </button>
        )}
      </>
    );
  }
  if (props.mode !== 'edit') return null;
  return (
    <>
      <button
        type="button"
        className="button subtle"
        disabled={busy || unsaved === 0}
        onClick={props.onDiscard}
      >
        {t('table.discard')}
      </button>
      <button
        type="button"
        className="button"
        disabled={busy || props.lockLost || unsaved === 0 || props.invalid > 0}
        onClick={props.onSchedule}
      >
        {t('schedule.action')}
      </button>
      <button
        type="button"
        className="button primary"
        disabled={busy || props.lockLost || unsaved === 0 || props.invalid > 0}
        title={t('table.saveShortcut')}
        onClick={props.onSave}
      >
        {busy
          ? t('table.working')
          : props.needsApproval
            ? t('table.submitForApproval')
            : t('table.save')}
      </button>
      <button type="button" className="button" disabled={busy} onClick={props.onFinish}>
        {t('table.finishEditing')}
      </button>
    </>
  );
}
