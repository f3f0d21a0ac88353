export const SESSION_QUERY_KEY = ['session'] as const;
export const TABLES_QUERY_KEY = ['tables'] as const;
export const LOCK_EVENTS_QUERY_KEY = ['lockEvents'] as const;
export const SECURITY_EVENTS_QUERY_KEY = ['securityEvents'] as const;
export const ROWS_QUERY_KEY = ['rows'] as const;
export const rowsQueryKey = (table: string) => [...ROWS_QUERY_KEY, table] as const;
export const AUTH_PROVIDERS_QUERY_KEY = ['authProviders'] as const;
export const USERS_QUERY_KEY = ['users'] as const;
export const LOCK_SETTINGS_QUERY_KEY = ['lockSettings'] as const;
