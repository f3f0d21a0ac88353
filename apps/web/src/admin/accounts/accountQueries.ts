import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import { apiKeysQuery } from './accountOperations';

export const apiKeysOptions = queryOptions({
  queryKey: ['apiKeys'],
  queryFn: async () => (await graphqlRequest(apiKeysQuery)).apiKeys,
});
