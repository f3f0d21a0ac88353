import { useContext, useEffect, useEffectEvent } from 'react';
import type { RequestArrivedSubscription } from '../generated/graphql';
import { LiveUpdatesContext } from '../live/liveContext';
import { useNotify } from '../ui/Notices';
import { requestArrivedSubscription } from './changeRequestOperations';

type Step = RequestArrivedSubscription['changeRequestChanged'];

/**
 * Tells an approver, wherever they are in the app, that a request they may decide has just
 * arrived, with a link to it. The API says per subscriber whether they may decide it
 * (`canDecide`): never its author, nor anyone the table's policy does not name.
 */
export function RequestArrivalNotices() {
  const notify = useNotify();
  const { client } = useContext(LiveUpdatesContext);

  const arrived = useEffectEvent((request: Step) => {
    if (request.state !== 'pending' || !request.canDecide) return;
    notify(
      'info',
      (t) => t('requests.arrived', { author: request.author, table: request.table }),
      `request-${request.id}`,
      { to: `/requests/${request.id}`, label: (t) => t('requests.open', { id: request.id }) },
    );
  });

  useEffect(() => {
    if (!client) return;
    return client.subscribe<RequestArrivedSubscription>(
      { query: requestArrivedSubscription.toString() },
      {
        next: ({ data }) => {
          if (data) arrived(data.changeRequestChanged);
        },
        // The queue's count still follows the lock events: a missed notice costs no request.
        error: () => {},
        complete: () => {},
      },
    );
  }, [client]);

  return null;
}
