import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../session/useSession';
import { describeError } from '../ui/describeError';
import { LoadingState } from '../ui/LoadingState';
import { usePageTitle } from '../ui/usePageTitle';
import { ownDecidedRequestsOptions, ownWaitingRequestsOptions } from './changeRequestQueries';
import { OwnRequestEntry } from './OwnRequestEntry';
import { RequestsTabs } from './RequestsTabs';

/** The author's change requests: those waiting for approval, then the decided ones, page by page. */
export function OwnRequestsPage() {
  const { t } = useTranslation();
  usePageTitle(t('fourEyes.mine.title'));
  const author = useSession().data?.name ?? '';
  const waiting = useQuery({ ...ownWaitingRequestsOptions(author), enabled: author !== '' });
  const decided = useInfiniteQuery({
    ...ownDecidedRequestsOptions(author),
    enabled: author !== '',
  });
  const decidedRequests = decided.data?.pages.flatMap((page) => page.requests);
  return (
    <section className="page requests-page">
      <div className="page-header">
        <div className="page-title">
          <h1>{t('fourEyes.mine.title')}</h1>
          <p className="muted">{t('fourEyes.mine.subtitle')}</p>
        </div>
      </div>
      <RequestsTabs />
      <section className="panel" aria-labelledby="own-waiting-heading">
        <h2 id="own-waiting-heading">{t('fourEyes.mine.waiting')}</h2>
        {waiting.isError && (
          <p className="banner banner-error">{describeError(waiting.error, t)}</p>
        )}
        {!waiting.data && !waiting.isError && <LoadingState />}
        {waiting.data?.length === 0 && <p className="muted">{t('fourEyes.mine.noneWaiting')}</p>}
        {waiting.data && waiting.data.length > 0 && (
          <ul className="own-requests" data-testid="own-waiting">
            {waiting.data.map((request) => (
              <OwnRequestEntry key={request.id} request={request} />
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="own-decided-heading">
        <h2 id="own-decided-heading">{t('fourEyes.mine.decided')}</h2>
        {decided.isError && (
          <p className="banner banner-error">{describeError(decided.error, t)}</p>
        )}
        {!decidedRequests && !decided.isError && <LoadingState />}
        {decidedRequests?.length === 0 && <p className="muted">{t('fourEyes.mine.noneDecided')}</p>}
        {decidedRequests && decidedRequests.length > 0 && (
          <ul className="own-requests" data-testid="own-decided">
            {decidedRequests.map((request) => (
              <OwnRequestEntry key={request.id} request={request} />
            ))}
          </ul>
        )}
        {decided.hasNextPage && (
          <button
            type="button"
            className="button small"
            disabled={decided.isFetchingNextPage}
            onClick={() => void decided.fetchNextPage()}
          >
            {t('fourEyes.mine.more')}
          </button>
        )}
      </section>
    </section>
  );
}
