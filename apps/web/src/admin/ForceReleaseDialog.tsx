import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableInfo } from '../tables/useTables';
import { Dialog } from '../ui/Dialog';

const MAX_REASON_LENGTH = 500;

interface ForceReleaseDialogProps {
  table: TableInfo;
  lockedTables: readonly string[];
  busy: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

/**
 * Two steps, because this takes a lock away from someone who may be mid-edit: first the
 * reason (required, it is logged and the holder will see it), then a confirmation that says
 * exactly what will happen.
 */
export function ForceReleaseDialog({
  table,
  lockedTables,
  busy,
  onConfirm,
  onCancel,
}: ForceReleaseDialogProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState<'reason' | 'confirm'>('reason');
  const [reason, setReason] = useState('');
  const trimmed = reason.trim();
  const editor = table.editor ?? t('tables.someone');
  return (
    <Dialog
      open
      tone="danger"
      title={t('forceRelease.title', { table: table.name })}
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
              {t('forceRelease.next')}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="button subtle" onClick={() => setStep('reason')}>
              {t('forceRelease.back')}
            </button>
            <button
              type="button"
              className="button danger"
              disabled={busy}
              onClick={() => onConfirm(trimmed)}
            >
              {t('forceRelease.confirm')}
            </button>
          </>
        )
      }
    >
      {step === 'reason' ? (
        <label className="field">
          <span>{t('forceRelease.reasonLabel', { editor })}</span>
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
          <p>{t('forceRelease.consequence', { table: table.name, editor })}</p>
          {lockedTables.length > 0 && (
            <p>{t('forceRelease.alsoReleased', { tables: lockedTables.join(', ') })}</p>
          )}
          <p className="quoted-reason">
            {t('forceRelease.reason')}: {trimmed}
          </p>
        </div>
      )}
    </Dialog>
  );
}
