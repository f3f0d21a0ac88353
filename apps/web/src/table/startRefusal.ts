import type { QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { GraphqlRequestError } from '../api/GraphqlRequestError';
import { TABLES_QUERY_KEY } from '../api/queryKeys';
import { editBlockMessage } from '../tables/editBlockMessage';
import { describeError } from '../ui/describeError';

/**
 * Why starting to edit a table failed: who is in the way, as the API's LOCK_CONFLICT names them
 * (someone started first), else in the server's words. The lock states shown are refreshed.
 */
export function startRefusal(error: unknown, queryClient: QueryClient, t: TFunction): string {
  const conflict = error instanceof GraphqlRequestError && error.code === 'LOCK_CONFLICT';
  if (!conflict) return describeError(error, t);
  void queryClient.invalidateQueries({ queryKey: TABLES_QUERY_KEY });
  const { editBlock, blockers } = error.errors[0]?.extensions ?? {};
  return t('table.startRefused', {
    reason:
      editBlock && blockers
        ? editBlockMessage({ kind: editBlock, blockers }, t)
        : describeError(error, t),
  });
}
