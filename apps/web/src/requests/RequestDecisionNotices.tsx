import { useContext, useEffect, useEffectEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { OwnRequestDecidedSubscription } from '../generated/graphql';
import { LiveUpdatesContext } from '../live/liveContext';
import { useNotify } from '../ui/Notices';
import { ownRequestDecidedSubscription } from './changeRequestOperations';

type Step = OwnRequestDecidedSubscription['changeRequestChanged'];

/**
 * Tells an author, wherever she is in the app, that another person decided her request (who,
 * how, and their comment), or that it failed at its time, with the way to her requests. The
 * mirror of RequestArrivalNotices. Her own withdrawal (from another tab too) is no news to her.
 */
export function RequestDecisionNotices({ author }: { author: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { client } = useContext(LiveUpdatesContext);

  const decided = useEffectEvent((request: Step) => {
    if (request.author !== author || request.state === 'pending') return;
    // A request that failed at its time was decided by nobody: its author is told all the same.
    const failed = request.state === 'failed';
    if (!failed && (!request.decidedBy || request.decidedBy === author)) return;
    const outcome = t(`fourEyes.notice.${request.state}`, {
      who: request.decidedBy ?? '',
      id: request.id,
      table: request.table,
    });
    const comment = request.decisionComment
      ? ` ${t('fourEyes.notice.comment', { comment: request.decisionComment })}`
      : '';
    notify('info', `${outcome}${comment}`, `request-${request.id}-decided`, {
      to: '/requests/mine',
      label: t('fourEyes.notice.open'),
    });
  });

  useEffect(() => {
    if (!client) return;
    return client.subscribe<OwnRequestDecidedSubscription>(
      { query: ownRequestDecidedSubscription.toString() },
      {
        next: ({ data }) => {
          if (data) decided(data.changeRequestChanged);
        },
        // My requests still follows the lock events: a missed notice costs no decision.
        error: () => {},
        complete: () => {},
      },
    );
  }, [client]);

  return null;
}
