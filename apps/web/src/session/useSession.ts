import { queryOptions, useQuery } from '@tanstack/react-query';
import { errorCode } from '../api/GraphqlRequestError';
import { graphqlRequest } from '../api/graphqlRequest';
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

export const sessionOptions = queryOptions({
  queryKey: ['session'],
  queryFn: fetchSessionUser,
  staleTime: 5 * 60_000,
});

/** Who is logged in: the user, null when nobody is, undefined while asking. */
export function useSession() {
  return useQuery(sessionOptions);
}
