import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { errorCode } from '../api/GraphqlRequestError';
import { sessionOptions } from '../session/useSession';

/**
 * One place reacts to an ended session: any UNAUTHENTICATED answer clears the cached caller,
 * and the session guard sends the user to the login page. Only lost connections are retried:
 * a refusal with a code will not change by asking again.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error) => onError(error) }),
    mutationCache: new MutationCache({ onError: (error) => onError(error) }),
    defaultOptions: {
      queries: {
        retry: (failures, error) => errorCode(error) === 'NETWORK_ERROR' && failures < 2,
        refetchOnWindowFocus: true,
      },
    },
  });
  function onError(error: unknown) {
    if (errorCode(error) === 'UNAUTHENTICATED') client.setQueryData(sessionOptions.queryKey, null);
  }
  return client;
}
