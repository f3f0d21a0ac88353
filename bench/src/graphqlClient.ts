import { Pool, request } from 'undici';

export interface GraphQLClient {
  /** POSTs one operation with an API key; throws on HTTP or GraphQL errors, returns `data`. */
  request<T>(apiKey: string, query: string, variables?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

/** A keep-alive HTTP client with up to `connections` parallel connections to the API, authenticated like any other system: with API keys. */
export function createGraphQLClient(baseUrl: string, connections: number): GraphQLClient {
  const pool = new Pool(baseUrl, { connections, pipelining: 1 });
  return {
    async request<T>(apiKey: string, query: string, variables?: Record<string, unknown>) {
      const response = await pool.request({
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.body.json()) as { data?: T; errors?: { message: string }[] };
      if (response.statusCode !== 200 || body.errors || !body.data) {
        throw new Error(`HTTP ${response.statusCode}: ${JSON.stringify(body.errors ?? body)}`);
      }
      return body.data;
    },
    close: () => pool.close(),
  };
}

/** One operation with an API key, on a connection of its own (for scenarios that send a few). */
export async function graphql(baseUrl: string, apiKey: string, query: string, variables: object) {
  const response = await request(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.body.json()) as { data?: Record<string, never>; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as Record<string, Record<string, unknown>>;
}

export const LOCK_MUTATION = `
  mutation Lock($input: UpdateTableStatusWithLockInput!) {
    UpdateTableStatusWithLock(input: $input) {
      lock_result
      current_status
      fk_current_status { table_name current_status }
    }
  }`;

export interface LockData {
  UpdateTableStatusWithLock: { lock_result: boolean; current_status: string };
}
