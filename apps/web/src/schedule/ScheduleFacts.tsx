import './schedule.css';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ScheduledRequestFieldsFragment } from '../generated/graphql';
import { useFormatters } from '../i18n/useFormatters';
import { keyText } from '../ui/rowKeyText';

/** Lateness up to this many seconds is the scheduler's ordinary delay, not worth a word. */
const ON_TIME_SECONDS = 1;

const FAILURE_REASONS = new Set(['ROWS_CHANGED', 'TABLE_HELD', 'REFUSED']);
const SAVE_ERROR_CODES = new Set([
  'ROW_CONFLICT',
  'INVALID_VALUE',
  'NOT_NULL',
  'UNIQUE',
  'FOREIGN_KEY',
  'CHECK',
]);

/** Why a row kept the request from applying, in words where its code is known. */
function rowReason(row: { code: string; message: string }, t: TFunction): string {
  if (row.code === 'ROW_CHANGED') return t('requests.today.changed');
  if (row.code === 'ROW_DELETED') return t('requests.today.deleted');
  if (SAVE_ERROR_CODES.has(row.code)) return t(`saveErrors.${row.code as 'ROW_CONFLICT'}`);
  return row.message;
}

/**
 * A request's time, in the user's time zone: when it takes effect, how late it was applied,
 * or why it failed then (the rows and their reasons).
 */
export function ScheduleFacts({ request }: { request: ScheduledRequestFieldsFragment }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (!request.effectiveAt) return null;
  const { failure, lateBySeconds } = request;
  const reason = failure?.reason ?? '';
  return (
    <>
      <p data-testid="effective-at">
        {t('schedule.takesEffect', { at: format.dateTimeSeconds(request.effectiveAt) })}
        {lateBySeconds !== null &&
          lateBySeconds !== undefined &&
          lateBySeconds > ON_TIME_SECONDS && (
            <span data-testid="late-by">
              {' · '}
              {t('schedule.lateBy', { late: format.seconds(lateBySeconds) })}
            </span>
          )}
      </p>
      {failure && (
        <div className="schedule-failure" data-testid="schedule-failure">
          {FAILURE_REASONS.has(reason)
            ? t(`schedule.failure.${reason as 'ROWS_CHANGED' | 'TABLE_HELD' | 'REFUSED'}`, {
                holder: failure.holder ?? '',
              })
            : failure.message}
          {failure.rows.length > 0 && (
            <ul>
              {failure.rows.map((row) => (
                <li key={`${row.action}-${keyText(row.key ?? {})}`}>
                  {keyText(row.key ?? {})}: {rowReason(row, t)}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </>
  );
}
