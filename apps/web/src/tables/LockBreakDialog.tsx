import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../ui/Dialog';
import type { TableInfo } from './useTables';

const MAX_REASON_LENGTH = 500;

/** Ending someone's lock (`forceRelease`), or taking it over to edit the table oneself. */
type LockBreak = 'forceRelease' | 'takeOver';

interface LockBreakDialogProps {
  kind: LockBreak;
  table: TableInfo;
  /** The referenced tables whose FK locks a force release frees too (a take-over keeps them). */
  lockedTables?: readonly string[];
  busy: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

/**
 * Two steps, because this takes a lock away from someone who may be mid-edit: first the
 * reason (required, it is logged and the holder will see it), then a confirmation that says
 * exactly what will happen.
 */
export function LockBreakDialog({
  kind,
  table,
  lockedTables = [],
  busy,
  onConfirm,
  onCancel,
}: LockBreakDialogProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState<'reason' | 'confirm'>('reason');
  const [reason, setReason] = useState('');
  const trimmed = reason.trim();
  const editor = table.editor ?? t('tables.someone');
  return (
    <Dialog
      open
      tone="danger"
      title={t(`${kind}.title`, { table: table.name })}
      onClose={onCancel}
      actions={
        step === 'reason' ? (
          <>
            <button type="button" className="button subtle" onClick={onCancel}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button primary"
              disabled={trimmed.length === 0}
              onClick={() => setStep('confirm')}
            >
              {t('common.next')}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="button subtle" onClick={() => setStep('reason')}>
              {t('common.back')}
            </button>
            <button
              type="button"
              className="button danger"
              disabled={busy}
              onClick={() => onConfirm(trimmed)}
            >
              {t(`${kind}.confirm`)}
            </button>
          </>
        )
      }
    >
      {step === 'reason' ? (
        <label className="field">
          <span>{t(`${kind}.reasonLabel`, { editor })}</span>
          <textarea
            name="reason"
            rows={3}
            required
            maxLength={MAX_REASON_LENGTH}
            autoFocus
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </label>
      ) : (
        <div className="confirm-summary">
          <p>{t(`${kind}.consequence`, { table: table.name, editor })}</p>
          {kind === 'forceRelease' && lockedTables.length > 0 && (
            <p>{t('forceRelease.alsoReleased', { tables: lockedTables.join(', ') })}</p>
          )}
          <p className="quoted-reason">{t('common.reason', { reason: trimmed })}</p>
        </div>
      )}
    </Dialog>
  );
}
