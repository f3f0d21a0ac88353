import type { QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { GraphqlRequestError } from '../../api/GraphqlRequestError';
import { editBlockMessage } from '../../tables/editBlockMessage';
import { tablesOptions } from '../../tables/useTables';
import { describeError } from '../../ui/describeError';

// Refusals that carry an edit block: someone started first, or an admin's rules (a freeze, a
// read-only table, a policy naming other editors) came into force meanwhile.
const BLOCKED = new Set(['LOCK_CONFLICT', 'TABLE_FROZEN', 'TABLE_READ_ONLY', 'FORBIDDEN']);

/**
 * Why starting to edit a table failed: what is in the way, as the API's refusal names it,
 * else in the server's words, in the language of the `t` it is given (a notice's words follow
 * a switch of language). The lock states shown are refreshed, once.
 */
export function startRefusal(error: unknown, queryClient: QueryClient): (t: TFunction) => string {
  const blocked = error instanceof GraphqlRequestError && BLOCKED.has(error.code ?? '');
  if (!blocked) return (t) => describeError(error, t);
  void queryClient.invalidateQueries({ queryKey: tablesOptions.queryKey });
  const { editBlock, blockers, reason } = error.errors[0]?.extensions ?? {};
  return (t) =>
    t('table.startRefused', {
      reason:
        editBlock && blockers
          ? editBlockMessage({ kind: editBlock, blockers, reason: reason ?? null }, t)
          : describeError(error, t),
    });
}
