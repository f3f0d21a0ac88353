import { benchPair } from '../benchDatabase';
import {
  createGraphQLClient,
  type GraphQLClient,
  LOCK_MUTATION,
  type LockData,
} from '../graphqlClient';
import { openedPerLevel } from '../openedPerLevel';
import type { Operation } from '../runClosedLoop';
import type { Subject } from '../sideBySide';

/** The lock cycle against the GraphQL server at `baseUrl` (the API, or the bare server), one connection per client. */
export const graphqlLockCycleSubject = (baseUrl: string, apiKeys: string[]): Subject =>
  openedPerLevel(
    (clients) => Promise.resolve(createGraphQLClient(baseUrl, clients)),
    (client) => graphqlLockCycle(client, apiKeys),
    (client) => client.close(),
  );

/**
 * The same acquire + release of client `i`'s table pair as the raw SQL floor, through
 * UpdateTableStatusWithLock over HTTP keep-alive, sent as a legacy client sends it.
 */
export function graphqlLockCycle(api: GraphQLClient, apiKeys: string[]): Operation {
  return async (client) => {
    const { child, parent } = benchPair(client);
    const apiKey = apiKeys[client] ?? '';
    const editor = `key:bench-${client}`;
    const acquired = await api.request<LockData>(apiKey, LOCK_MUTATION, {
      input: {
        table_name: child,
        current_status: 'normal',
        target_status: 'editing',
        fk_table_name: [parent],
        fk_current_status: 'normal',
        fk_target_status: 'locked',
        editor,
      },
    });
    if (!acquired.UpdateTableStatusWithLock.lock_result) return false;
    const released = await api.request<LockData>(apiKey, LOCK_MUTATION, {
      input: {
        table_name: child,
        current_status: 'editing',
        target_status: 'normal',
        fk_table_name: [parent],
        fk_current_status: 'locked',
        fk_target_status: 'normal',
        editor,
      },
    });
    return released.UpdateTableStatusWithLock.lock_result;
  };
}
