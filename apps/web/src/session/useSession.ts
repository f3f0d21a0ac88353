import { useQuery } from '@tanstack/react-query';
import { errorCode } from '../api/GraphqlRequestError';
import { graphqlRequest } from '../api/graphqlRequest';
import { SESSION_QUERY_KEY } from '../api/queryKeys';
import type { MeQuery } from '../generated/graphql';
import { meQuery } from './sessionOperations';

export type SessionUser = NonNullable<MeQuery['me']>;

async function fetchSessionUser(): Promise<SessionUser | null> {
  try {
    return (await graphqlRequest(meQuery)).me ?? null;
  } catch (error) {
    // A cookie whose session has ended is the same as no login.
    if (errorCode(error) === 'UNAUTHENTICATED') return null;
    throw error;
  }
}

/** Who is logged in: the user, null when nobody is, undefined while asking. */
export function useSession() {
  return useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: fetchSessionUser,
    staleTime: 5 * 60_000,
  });
}
