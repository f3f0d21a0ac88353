import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';
import { Dialog } from '../ui/Dialog';
import { EffectiveAtError } from './EffectiveAtError';
import { EffectiveAtField } from './EffectiveAtField';
import { fromLocalInput, toLocalInput } from './localDateTime';

interface MoveRequestDialogProps {
  id: string;
  /** Its time now. */
  effectiveAt: string;
  busy: boolean;
  /** Why the server refused the last try (null: it did not). */
  error: unknown;
  onMove: (effectiveAt: Date) => void;
  onCancel: () => void;
}

/** Another time for a request that still waits for its own. */
export function MoveRequestDialog(props: MoveRequestDialogProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [when, setWhen] = useState(() => toLocalInput(new Date(props.effectiveAt)));
  const effectiveAt = fromLocalInput(when);
  return (
    <Dialog
      open
      title={t('schedule.moveTitle', { id: props.id })}
      onClose={props.onCancel}
      actions={null}
    >
      <form
        className="schedule-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (effectiveAt) props.onMove(effectiveAt);
        }}
      >
        <p>{t('schedule.takesEffect', { at: format.dateTimeSeconds(props.effectiveAt) })}</p>
        <EffectiveAtField value={when} onChange={setWhen} />
        <EffectiveAtError error={props.error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={props.onCancel}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button primary" disabled={props.busy || !effectiveAt}>
            {t('schedule.move')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
