import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { graphqlRequest } from '../api/graphqlRequest';
import { useFormatters } from '../i18n/useFormatters';
import { describeError } from '../ui/describeError';
import { LoadingState } from '../ui/LoadingState';
import { useNotify } from '../ui/Notices';
import { usePageTitle } from '../ui/usePageTitle';
import {
  approveRequestMutation,
  rejectRequestMutation,
  sendBackRequestMutation,
} from './changeRequestOperations';
import {
  CHANGE_REQUESTS_KEY,
  changeRequestOptions,
  requestQueueOptions,
} from './changeRequestQueries';
import { RequestDiff } from './RequestDiff';
import { RequestsTabs } from './RequestsTabs';

/** Approvers' queue of change requests, and the one opened: its diff and the decision. */
export function RequestsPage() {
  const { t } = useTranslation();
  const format = useFormatters();
  const { id } = useParams();
  usePageTitle(t('requests.title'));
  const queue = useQuery(requestQueueOptions);
  return (
    <section className="page requests-page">
      <div className="page-header">
        <div className="page-title">
          <h1>{t('requests.title')}</h1>
          <p className="muted">{t('requests.subtitle')}</p>
        </div>
      </div>
      <RequestsTabs />
      {queue.isError && <p className="banner banner-error">{describeError(queue.error, t)}</p>}
      {!queue.data && !queue.isError && <LoadingState />}
      {queue.data?.length === 0 && <p className="muted">{t('requests.none')}</p>}
      {queue.data && queue.data.length > 0 && (
        <ul className="request-queue" aria-label={t('requests.queue')}>
          {queue.data.map((request) => (
            <li key={request.id}>
              <Link
                to={`/requests/${request.id}`}
                aria-current={request.id === id ? 'page' : undefined}
              >
                {t('requests.entry', {
                  id: request.id,
                  table: request.table,
                  author: request.author,
                  count: request.rowCount,
                })}
              </Link>{' '}
              <time className="muted" dateTime={request.submittedAt}>
                {format.dateTimeSeconds(request.submittedAt)}
              </time>
            </li>
          ))}
        </ul>
      )}
      {id && <RequestReview id={id} />}
    </section>
  );
}

type Decision = 'approve' | 'reject' | 'sendBack';

function RequestReview({ id }: { id: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const request = useQuery(changeRequestOptions(id));
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  if (request.isError)
    return <p className="banner banner-error">{describeError(request.error, t)}</p>;
  if (!request.data) return request.isLoading ? <LoadingState /> : <p>{t('requests.notFound')}</p>;
  const shown = request.data;

  async function decide(decision: Decision) {
    setBusy(true);
    try {
      const state =
        decision === 'approve'
          ? (await graphqlRequest(approveRequestMutation, { id, comment: comment || null }))
              .approveChangeRequest.state
          : decision === 'reject'
            ? (await graphqlRequest(rejectRequestMutation, { id, comment })).rejectChangeRequest
                .state
            : (await graphqlRequest(sendBackRequestMutation, { id, comment })).sendBackChangeRequest
                .state;
      notify('success', (t) => t('requests.decided', { id, state: t(`requests.states.${state}`) }));
      setComment('');
    } catch (error) {
      notify('error', (t) => describeError(error, t));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: CHANGE_REQUESTS_KEY });
    }
  }

  const commentId = `request-${id}-comment`;
  const refusalId = `request-${id}-refusal`;
  const refused = shown.check && !shown.check.applies ? shown.check : null;
  return (
    <article className="request-review" aria-labelledby={`request-${id}-title`}>
      <h2 id={`request-${id}-title`}>
        {t('requests.heading', { id, table: shown.table, author: shown.author })}
      </h2>
      <p>
        <span className={`status-badge request-${shown.state}`} data-testid="request-state">
          {t(`requests.states.${shown.state}`)}
        </span>{' '}
        {shown.decidedBy && t('requests.decidedBy', { who: shown.decidedBy })}
      </p>
      {shown.comment && (
        <figure className="request-comment">
          <figcaption>{t('requests.authorComment', { author: shown.author })}</figcaption>
          <blockquote className="quoted-reason">{shown.comment}</blockquote>
        </figure>
      )}
      {shown.decidedBy && shown.decisionComment && (
        <figure className="request-comment" data-testid="request-decision-comment">
          <figcaption>{t('fourEyes.mine.decisionComment', { who: shown.decidedBy })}</figcaption>
          <blockquote className="quoted-reason">{shown.decisionComment}</blockquote>
        </figure>
      )}
      {/* A narrow screen scrolls the diff sideways rather than squeezing a column to a letter. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the keyboard scrolls a region that has focus */}
      <section className="table-scroll" aria-label={t('requests.rows', { id })} tabIndex={0}>
        <RequestDiff request={shown} />
      </section>
      {shown.canDecide && (
        <div className="request-decision">
          <label htmlFor={commentId}>{t('requests.comment')}</label>
          <textarea
            id={commentId}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            rows={2}
          />
          {refused && (
            <p id={refusalId} className="banner banner-warning" data-testid="approval-refusal">
              {t('requests.wouldRefuse', {
                author: shown.author,
                count: refused.problems.length,
              })}
            </p>
          )}
          <div className="button-row">
            <button
              type="button"
              className="button primary"
              disabled={busy}
              aria-describedby={refused ? refusalId : undefined}
              onClick={() => void decide('approve')}
            >
              {t('requests.approve')}
            </button>
            <button
              type="button"
              className="button"
              disabled={busy || comment.trim() === ''}
              onClick={() => void decide('sendBack')}
            >
              {t('requests.sendBack')}
            </button>
            <button
              type="button"
              className="button danger"
              disabled={busy || comment.trim() === ''}
              onClick={() => void decide('reject')}
            >
              {t('requests.reject')}
            </button>
          </div>
        </div>
      )}
    </article>
  );
}
