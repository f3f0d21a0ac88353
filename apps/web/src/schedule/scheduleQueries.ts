import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import { calendarRequestsQuery, editionsQuery } from './scheduleOperations';

/**
 * The key of what is planned (the editions, the calendar): a change request's step (scheduled,
 * moved, applied, failed) makes it out of date.
 */
export const SCHEDULE_KEY = ['schedule'] as const;

export const editionsOptions = queryOptions({
  queryKey: [...SCHEDULE_KEY, 'editions'],
  queryFn: async () => (await graphqlRequest(editionsQuery)).editions,
});

/** The requests that take effect on a date (of one table, or all): what the calendar lists. */
export const calendarRequestsOptions = (table: string | null) =>
  queryOptions({
    queryKey: [...SCHEDULE_KEY, 'calendar', table],
    queryFn: async () =>
      (await graphqlRequest(calendarRequestsQuery, { table })).changeRequests.requests,
  });
