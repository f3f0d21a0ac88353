import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import { CHANGE_REQUESTS_KEY } from '../requests/changeRequestQueries';
import { calendarRequestsQuery, editionsQuery } from './scheduleOperations';

/** The key of the editions: a request's step (scheduled, applied, failed) makes it out of date. */
export const EDITIONS_KEY = ['editions'] as const;

export const editionsOptions = queryOptions({
  queryKey: EDITIONS_KEY,
  queryFn: async () => (await graphqlRequest(editionsQuery)).editions,
});

/** The requests that take effect on a date (of one table, or all): what the calendar lists. */
export const calendarRequestsOptions = (table: string | null) =>
  queryOptions({
    queryKey: [...CHANGE_REQUESTS_KEY, 'calendar', table],
    queryFn: async () =>
      (await graphqlRequest(calendarRequestsQuery, { table })).changeRequests.requests,
  });
