import type { GraphQLClient } from '../graphqlClient';
import type { Operation } from '../runClosedLoop';

const TABLES_QUERY = `{
  tables { name status editor locked_by lockedBy references referencedBy version updatedAt }
}`;

/** The `tables` query with every field of every table, as a status page polls it. */
export function readTables(api: GraphQLClient, apiKey: string): Operation {
  return async () => {
    const data = await api.request<{ tables: unknown[] }>(apiKey, TABLES_QUERY);
    return data.tables.length > 0;
  };
}
