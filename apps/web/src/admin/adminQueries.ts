import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import type { LockEventFilter, SecurityEventFilter } from '../generated/graphql';
import { lockEventsQuery, securityEventsQuery, usersQuery } from './adminOperations';
import { lockSettingsQuery } from './idleLimitOperations';
import type { HistoryRequest } from './useHistoryPage';

/** The key every page of the audit history shares: what a live lock event makes out of date. */
export const LOCK_EVENTS_KEY = ['lockEvents'] as const;

export const lockEventsOptions = (request: HistoryRequest<LockEventFilter>) =>
  queryOptions({
    queryKey: [...LOCK_EVENTS_KEY, request],
    queryFn: async () => (await graphqlRequest(lockEventsQuery, request)).lockEvents,
  });

export const securityEventsOptions = (request: HistoryRequest<SecurityEventFilter>) =>
  queryOptions({
    queryKey: ['securityEvents', request],
    queryFn: async () => (await graphqlRequest(securityEventsQuery, request)).securityEvents,
  });

export const usersOptions = queryOptions({
  queryKey: ['users'],
  queryFn: async () => (await graphqlRequest(usersQuery)).users,
});

export const lockSettingsOptions = queryOptions({
  queryKey: ['lockSettings'],
  queryFn: async () => (await graphqlRequest(lockSettingsQuery)).lockSettings,
});
