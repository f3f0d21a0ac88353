import type { QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { errorCode } from '../api/GraphqlRequestError';
import { TABLES_QUERY_KEY } from '../api/queryKeys';
import { editBlock } from '../tables/editBlock';
import { editBlockMessage } from '../tables/editBlockMessage';
import { fetchTables } from '../tables/useTables';
import { describeError } from '../ui/describeError';

/**
 * Why starting to edit `table` failed: from fresh lock states where they explain it (someone
 * started first), else in the server's words.
 */
export async function startRefusal(
  error: unknown,
  table: string,
  user: string,
  queryClient: QueryClient,
  t: TFunction,
): Promise<string> {
  if (errorCode(error) !== 'LOCK_CONFLICT') return describeError(error, t);
  const fresh = await queryClient
    .fetchQuery({ queryKey: TABLES_QUERY_KEY, queryFn: fetchTables, staleTime: 0 })
    .catch(() => []);
  const now = fresh.find((candidate) => candidate.name === table);
  const why = now && editBlock(now, fresh, user);
  return t('table.startRefused', {
    reason: why ? editBlockMessage(why, t) : describeError(error, t),
  });
}
