import type { TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { startApiServer } from '../../src/server';

export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export interface TestApi {
  url: string;
  /** POSTs one GraphQL operation, as any HTTP client would. */
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<GraphQLResponse<T>>;
  stop(): Promise<void>;
}

/** The real API server (Apollo over HTTP) on a free port, against a test database. */
export async function startTestApi(database: TestDatabase): Promise<TestApi> {
  const server = await startApiServer({
    context: { prisma: database.prisma, masterSchema: 'master', logger: pino({ level: 'silent' }) },
    port: 0,
    host: '127.0.0.1',
  });
  return {
    url: server.url,
    async graphql(query, variables) {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as GraphQLResponse<never>;
    },
    stop: server.stop,
  };
}
