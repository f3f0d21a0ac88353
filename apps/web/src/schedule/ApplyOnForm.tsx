import './schedule.css';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';
import { EffectiveAtError } from './EffectiveAtError';
import { EffectiveAtField } from './EffectiveAtField';
import { fromLocalInput, toLocalInput } from './localDateTime';
import { editionsOptions } from './scheduleQueries';

/** When and how changes are to take effect. */
export interface Schedule {
  /** The time typed, or null when an edition gives it. */
  effectiveAt: Date | null;
  editionId: string | null;
  comment: string;
  /** Keep the lock now (default: release it, so that others go on editing). */
  keepEditing: boolean;
}

export interface ApplyOnFormProps {
  /** What becomes the request, in words (the grid's changes, or an import's rows). */
  explanation: string;
  /** The table's policy needs approval: approval first, then the change waits for its time. */
  needsApproval: boolean;
  busy: boolean;
  /** Why the server refused the last try (null: it did not). */
  error: unknown;
  onSchedule: (schedule: Schedule) => void;
  onCancel: () => void;
}

const IN_AN_HOUR_MS = 3600_000;

/**
 * "Apply on…": a time (or an edition), a comment, and whether to keep the lock. Mounted only
 * while it is shown: each showing starts from a time an hour ahead.
 */
export function ApplyOnForm(props: ApplyOnFormProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const editions = useQuery(editionsOptions).data ?? [];
  const waiting = editions.filter((edition) => edition.state === 'scheduled');
  const [when, setWhen] = useState(() => toLocalInput(new Date(Date.now() + IN_AN_HOUR_MS)));
  const [editionId, setEditionId] = useState('');
  const [comment, setComment] = useState('');
  const [keepEditing, setKeepEditing] = useState(false);
  const effectiveAt = editionId === '' ? fromLocalInput(when) : null;
  const ready = editionId !== '' || effectiveAt !== null;
  return (
    <form
      className="schedule-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!ready) return;
        props.onSchedule({ effectiveAt, editionId: editionId || null, comment, keepEditing });
      }}
    >
      <p>{props.explanation}</p>
      {props.needsApproval && (
        <p className="banner banner-info" data-testid="schedule-needs-approval">
          {t('schedule.needsApproval')}
        </p>
      )}
      <label className="field">
        {t('schedule.edition')}
        <select value={editionId} onChange={(event) => setEditionId(event.target.value)}>
          <option value="">{t('schedule.noEdition')}</option>
          {waiting.map((edition) => (
            <option key={edition.id} value={edition.id}>
              {t('schedule.editionOption', {
                name: edition.name,
                at: format.dateTime(edition.effectiveAt),
              })}
            </option>
          ))}
        </select>
      </label>
      {editionId === '' && <EffectiveAtField value={when} onChange={setWhen} />}
      <label className="field">
        {t('schedule.comment')}
        <textarea value={comment} rows={2} onChange={(event) => setComment(event.target.value)} />
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={keepEditing}
          onChange={(event) => setKeepEditing(event.target.checked)}
        />
        {t('schedule.keepLock')}
      </label>
      <EffectiveAtError error={props.error} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button primary" disabled={props.busy || !ready}>
          {t('schedule.confirm')}
        </button>
      </div>
    </form>
  );
}
