import type { ConformanceApi, KeyName } from './conformanceApi';
import type { RunnerAnswer } from './runnerProcess';

type Args = Record<string, unknown>;

/** What a harness step answers: as a runner's answer, to be judged alike. */
export type HarnessAnswer = RunnerAnswer;

/**
 * The harness's own steps (README, "Scenarios"): faults, an admin's or another user's GraphQL
 * calls, and looks at the database, done beside the client under test.
 */
export async function runHarnessStep(
  api: ConformanceApi,
  step: string,
  args: Args,
): Promise<HarnessAnswer> {
  const done = (value: unknown = null): HarnessAnswer => ({ ok: true, value });
  switch (step) {
    case 'api.restart':
      await api.restart();
      return done();
    case 'api.kill':
      await api.kill();
      return done();
    case 'api.start':
      await api.start();
      return done();
    case 'db.failover':
      await api.failOver();
      return done();
    case 'relay.cutAnswers':
      api.relay.cutAnswersTo(String(args.marker), Number(args.times ?? 1));
      return done();
    case 'relay.refuse':
      api.relay.refuse(Number(args.count ?? 1));
      return done();
    case 'relay.cutAll':
      api.relay.cutAll();
      return done();
    case 'relay.pendingCuts':
      return done(api.relay.pendingCuts());
    case 'graphql':
      return graphql(api, (args.key ?? 'admin') as KeyName, String(args.query), args.variables);
    case 'lease.runOut':
      // As if the holder had stopped renewing: its lease ends now, by the database's clock.
      await api.database.prisma.$executeRaw`
        UPDATE tablelock.table_lock SET lease_expires_at = now(), version = version + 1
        WHERE table_name = ${String(args.table)} AND status = 'editing'`;
      return done();
    case 'lockState':
      return done(await lockState(api, String(args.table)));
    case 'waiters':
      return done(
        await api.database.prisma.lockWaiter.count({
          where: { tables: { has: String(args.table) } },
        }),
      );
    case 'leaseRenewed':
      return done(await leaseRenewed(api, String(args.table), Number(args.times ?? 1)));
    case 'feedEnd':
      return feedEnd(api, args.tables);
    case 'lockEvents':
      return done(await lockEvents(api, String(args.table)));
    case 'sql':
      return done(await api.database.prisma.$queryRawUnsafe(String(args.query)));
    default:
      throw new Error(`No harness step is called ${step}.`);
  }
}

async function graphql(
  api: ConformanceApi,
  key: KeyName,
  query: string,
  variables: unknown,
): Promise<HarnessAnswer> {
  const response = await fetch(`${api.directUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${api.keys[key]}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as {
    data?: unknown;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
  const [error] = body.errors ?? [];
  if (error) {
    const code = String(error.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
    return {
      ok: false,
      error: {
        code,
        type: 'GraphQLError',
        message: error.message,
        ...(error.extensions ? { extensions: error.extensions } : {}),
      },
    };
  }
  return { ok: true, value: body.data };
}

/** How long leaseRenewed waits for the renewals it asks for. */
const RENEWALS_WITHIN_MS = 30_000;

/**
 * Whether the table's lease end moves `times` times (renewals every third of a lease) while its
 * token stays the same: the holder renews, and nobody else took the lock meanwhile.
 */
async function leaseRenewed(api: ConformanceApi, table: string, times: number) {
  const first = await lockState(api, table);
  const ends = new Set([first.leaseExpiresAt]);
  const deadline = Date.now() + RENEWALS_WITHIN_MS;
  while (ends.size <= times && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await lockState(api, table);
    if (now.token !== first.token) return false;
    ends.add(now.leaseExpiresAt);
  }
  return ends.size > times;
}

/** The change feed's cursor after every event kept so far: a client reads what comes next. */
async function feedEnd(api: ConformanceApi, tables: unknown): Promise<HarnessAnswer> {
  let after: string | null = null;
  for (;;) {
    const answer = await graphql(
      api,
      'admin',
      `query FeedEnd($after: String, $tables: [String!]) {
        changeFeed(after: $after, first: 500, tables: $tables) { events { id } endCursor }
      }`,
      { after, tables },
    );
    if (!answer.ok) return answer;
    const page = (answer.value as { changeFeed: { events: unknown[]; endCursor: string } })
      .changeFeed;
    after = page.endCursor;
    if (page.events.length < 500) return { ok: true, value: after };
  }
}

async function lockState(api: ConformanceApi, table: string) {
  const row = await api.database.prisma.tableLock.findUnique({ where: { tableName: table } });
  if (!row) throw new Error(`${table} is not in the registry.`);
  return {
    status: row.status,
    editor: row.editor,
    token: row.fencingToken?.toString() ?? null,
    lockedBy: row.lockedBy,
    leaseExpiresAt: row.leaseExpiresAt?.toISOString() ?? null,
  };
}

/** The table's lock history, oldest first: what happened, by whom, under which token. */
async function lockEvents(api: ConformanceApi, table: string) {
  const events = await api.database.prisma.lockEvent.findMany({
    where: { tableName: table },
    orderBy: { id: 'asc' },
  });
  return events.map((event) => ({
    action: event.action,
    actor: event.actor,
    token: event.token?.toString() ?? null,
  }));
}
