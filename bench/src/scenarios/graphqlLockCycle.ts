import { benchPair } from '../benchDatabase';
import { type GraphQLClient, LOCK_MUTATION, type LockData } from '../graphqlClient';
import type { Operation } from '../runClosedLoop';

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
