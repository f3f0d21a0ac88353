import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import { tableSettingsQuery } from './governanceOperations';

/** Every table's policy and the take-over rule. */
export const tableSettingsOptions = queryOptions({
  queryKey: ['tableSettings'],
  queryFn: () => graphqlRequest(tableSettingsQuery),
});
