import type { TableStatus } from '../generated/graphql';

export const SESSION_QUERY_KEY = ['session'] as const;
export const TABLES_QUERY_KEY = ['tables'] as const;
export const TABLE_PAGE_QUERY_KEY = ['tablePage'] as const;
export const LOCK_EVENTS_QUERY_KEY = ['lockEvents'] as const;
export const SECURITY_EVENTS_QUERY_KEY = ['securityEvents'] as const;
export const ROWS_QUERY_KEY = ['rows'] as const;
export const rowsQueryKey = (table: string) => [...ROWS_QUERY_KEY, table] as const;
export const AUTH_PROVIDERS_QUERY_KEY = ['authProviders'] as const;
export const USERS_QUERY_KEY = ['users'] as const;
export const LOCK_SETTINGS_QUERY_KEY = ['lockSettings'] as const;

/** Which page of the tables page: the name search, the status shown, and where. */
export interface TablePageView {
  search: string;
  status: TableStatus | null;
  offset: number;
  limit: number;
}

export const tablePageQueryKey = (view: TablePageView) => [...TABLE_PAGE_QUERY_KEY, view] as const;
