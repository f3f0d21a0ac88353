import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { MIN_IDLE_LIMIT_SECONDS, MIN_LEASE_SECONDS } from '@tablelock/lock';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RowPageDocument } from '../../web/src/generated/graphql';
import type { ApiContext } from '../src/context';
import { schema } from '../src/graphql/schema';
import { WARM_UP_PRINCIPAL, warmUpTablePage } from '../src/graphql/warmUpTablePage';
import { createApiServices, type RunningApiServices } from '../src/process/createApiServices';
import { startTestApi } from './support/testApi';

// WARM_UP (issue 42): the table page's first reads, run once before the server listens, leave
// Apollo's document cache, graphql-js, Prisma and the pool warm for the first person's reads.

let database: TestDatabase;
let firstTable: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const first = await database.prisma.tableLock.findFirstOrThrow({
    orderBy: { tableName: 'asc' },
  });
  firstTable = first.tableName;
});
afterAll(async () => {
  await database.close();
});

it("a start with WARM_UP answers every one of the table page's reads on the registry's first table before it listens, and counts none as a client's", async () => {
  const lines: { msg: string; table?: string; answered?: number; of?: number }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const api = await startTestApi(database, { warmUp: true, logger });
  try {
    expect(lines.find((line) => line.msg === 'warmed up')).toMatchObject({
      table: firstTable,
      answered: 8,
      of: 8,
    });
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    expect(metrics).not.toMatch(/tablelock_graphql_request_duration_seconds_count\{[^}]*"rows"/);
    await api.anonymous.graphql('{ me { name } }');
    expect(await (await fetch(`${api.url}/metrics`)).text()).toMatch(
      /tablelock_graphql_request_duration_seconds_count\{[^}]*"me"\} 1\b/,
    );
  } finally {
    await api.stop();
  }
});

/** The operations Apollo had to parse (not found in its document cache), by name. */
function recordParses(): { parsed: string[]; plugin: ApolloServerPlugin<ApiContext> } {
  const parsed: string[] = [];
  return {
    parsed,
    plugin: {
      async requestDidStart() {
        return {
          async parsingDidStart(request) {
            parsed.push(request.request.operationName ?? request.source.slice(0, 40));
          },
        };
      },
    },
  };
}

it('after the warm-up, the page’s first read of rows is served from the document cache, not parsed again', async () => {
  const running: RunningApiServices = await createApiServices({
    prisma: database.prisma,
    directDatabaseUrl: database.url,
    masterSchema: 'master',
    logger: pino({ level: 'silent' }),
    sessionTtlSeconds: 3600,
    passwordLogin: true,
    oidc: null,
    queueReservationSeconds: 60,
    maxWaitersPerPrincipal: 10,
    minIdleLimitSeconds: MIN_IDLE_LIMIT_SECONDS,
    minLeaseSeconds: MIN_LEASE_SECONDS,
    sortIndexesEnabled: false,
  });
  const { parsed, plugin } = recordParses();
  const apollo = new ApolloServer<ApiContext>({ schema, plugins: [plugin] });
  await apollo.start();
  try {
    expect(await warmUpTablePage(apollo, running.services)).toBe(8);
    expect(parsed).toHaveLength(8);
    parsed.length = 0;

    const alice = { ...WARM_UP_PRINCIPAL, id: 'alice', name: 'alice', role: 'editor' as const };
    const answer = await apollo.executeOperation(
      {
        query: RowPageDocument.toString(),
        variables: { table: 'products', sort: [], filter: [], offset: 0, limit: 100 },
      },
      {
        contextValue: {
          ...running.services,
          principal: alice,
          credentialError: null,
          sessionToken: null,
          staleSessionCookie: false,
        },
      },
    );
    expect(answer.body.kind === 'single' && answer.body.singleResult.errors).toBeUndefined();
    expect(parsed).toEqual([]);
  } finally {
    await apollo.stop();
    await running.stop();
  }
});
