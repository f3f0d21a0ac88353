import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import { authProvidersQuery } from './sessionOperations';

/** How people may sign in: the password form, the OpenID provider, or both. Set at the server's start. */
export const authProvidersOptions = queryOptions({
  queryKey: ['authProviders'],
  queryFn: async () => (await graphqlRequest(authProvidersQuery)).authProviders,
  staleTime: Number.POSITIVE_INFINITY,
});

export const useAuthProviders = () => useQuery(authProvidersOptions);
