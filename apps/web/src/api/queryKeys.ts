export const SESSION_QUERY_KEY = ['session'] as const;
export const TABLES_QUERY_KEY = ['tables'] as const;
