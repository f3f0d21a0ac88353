import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import {
  changeRequestDetailQuery,
  latestOwnRequestQuery,
  ownRequestsQuery,
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

/** A closed request: decided by an approver, sent back, withdrawn, or failed at its time. */
export const DECIDED_STATES = ['applied', 'rejected', 'sentBack', 'withdrawn', 'failed'] as const;

const DECIDED_PER_PAGE = 20;
// A pending request holds its table's lock: an author has at most one per table. Scheduled
// ones hold none, but a hundred changes planned ahead by one person is already a lot.
const MOST_WAITING = 100;

/** The author's requests that wait: for approval, or for their time. Newest first. */
export const ownWaitingRequestsOptions = (author: string) =>
  queryOptions({
    queryKey: [...CHANGE_REQUESTS_KEY, 'own', author, 'waiting'],
    queryFn: async () =>
      (
        await graphqlRequest(ownRequestsQuery, {
          author,
          states: ['pending', 'scheduled'],
          first: MOST_WAITING,
        })
      ).changeRequests.requests,
  });

/** The author's decided requests, newest first, page after page. */
export const ownDecidedRequestsOptions = (author: string) =>
  infiniteQueryOptions({
    queryKey: [...CHANGE_REQUESTS_KEY, 'own', author, 'decided'],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await graphqlRequest(ownRequestsQuery, {
          author,
          states: [...DECIDED_STATES],
          after: pageParam,
          first: DECIDED_PER_PAGE,
        })
      ).changeRequests,
    getNextPageParam: (page) => page.endCursor,
  });
