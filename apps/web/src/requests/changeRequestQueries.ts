import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import {
  changeRequestDetailQuery,
  latestOwnRequestQuery,
  requestQueueQuery,
  requestsToDecideQuery,
} from './changeRequestOperations';

/** The key every change request query shares: what a live request step makes out of date. */
export const CHANGE_REQUESTS_KEY = ['changeRequests'] as const;

export const requestsToDecideOptions = queryOptions({
  queryKey: [...CHANGE_REQUESTS_KEY, 'toDecide'],
  queryFn: async () => (await graphqlRequest(requestsToDecideQuery)).changeRequestsToDecide,
});

export const requestQueueOptions = queryOptions({
  queryKey: [...CHANGE_REQUESTS_KEY, 'queue'],
  queryFn: async () => (await graphqlRequest(requestQueueQuery)).changeRequests.requests,
});

export const changeRequestOptions = (id: string) =>
  queryOptions({
    queryKey: [...CHANGE_REQUESTS_KEY, 'one', id],
    queryFn: async () => (await graphqlRequest(changeRequestDetailQuery, { id })).changeRequest,
  });

/** The author's newest request on a table: what their table page shows the outcome of. */
export const latestOwnRequestOptions = (table: string, author: string) =>
  queryOptions({
    queryKey: [...CHANGE_REQUESTS_KEY, 'latestOwn', table, author],
    queryFn: async () =>
      (await graphqlRequest(latestOwnRequestQuery, { table, author })).changeRequests.requests[0] ??
      null,
  });
