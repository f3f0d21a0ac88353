import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { OwnRequestsQuery } from '../generated/graphql';
import { useFormatters } from '../i18n/useFormatters';
import { requestStateText } from '../schedule/requestStateText';
import { ScheduleFacts } from '../schedule/ScheduleFacts';
import { ScheduledRequestActions } from './ScheduledRequestActions';

type OwnRequest = OwnRequestsQuery['changeRequests']['requests'][number];

// Until its time, its author may still move or withdraw a request that takes effect on a date.
const WAITING = new Set(['pending', 'scheduled']);

/**
 * One of the author's requests: its state, her comment, the decision with its comment, and for
 * one that takes effect on a date its time (to move, until then) and how it went.
 */
export function OwnRequestEntry({ request }: { request: OwnRequest }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const decider = request.decidedBy ?? '';
  return (
    <li className="own-request" data-testid={`own-request-${request.id}`}>
      <div className="own-request-head">
        <Link to={`/requests/${request.id}`}>
          {t('fourEyes.mine.entry', {
            id: request.id,
            table: request.table,
            count: request.rowCount,
          })}
        </Link>
        <span className={`status-badge request-${request.state}`} data-testid="own-request-state">
          {requestStateText(request.state, request.effectiveAt, t)}
        </span>
      </div>
      <p className="muted">
        {t('fourEyes.mine.submitted', { at: format.dateTimeSeconds(request.submittedAt) })}
        {request.decidedBy && request.decidedAt && (
          <>
            {' · '}
            {t(`requests.states.${request.state}`)}{' '}
            {t('fourEyes.mine.decidedBy', {
              who: request.decidedBy,
              at: format.dateTimeSeconds(request.decidedAt),
            })}
          </>
        )}
      </p>
      <ScheduleFacts request={request} />
      {request.effectiveAt && WAITING.has(request.state) && (
        <ScheduledRequestActions
          id={request.id}
          effectiveAt={request.effectiveAt}
          inEdition={request.editionId !== null && request.editionId !== undefined}
        />
      )}
      {request.comment && (
        <figure className="request-comment">
          <figcaption>{t('fourEyes.mine.yourComment')}</figcaption>
          <blockquote className="quoted-reason">{request.comment}</blockquote>
        </figure>
      )}
      {request.decisionComment && (
        <figure className="request-comment" data-testid="own-request-decision-comment">
          <figcaption>{t('fourEyes.mine.decisionComment', { who: decider })}</figcaption>
          <blockquote className="quoted-reason">{request.decisionComment}</blockquote>
        </figure>
      )}
      <Link to={`/tables/${encodeURIComponent(request.table)}`}>
        {t('fourEyes.mine.openTable', { table: request.table })}
      </Link>
    </li>
  );
}
