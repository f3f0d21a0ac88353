import type { Role } from '@tablelock/db';
import {
  createApiKey,
  DEMO_PASSWORD,
  type LoginThrottleOptions,
  type SignInRateLimitOptions,
} from '@tablelock/identity';
import { MIN_IDLE_LIMIT_SECONDS, MIN_LEASE_SECONDS, type UnfinishedLeaves } from '@tablelock/lock';
import type { DeliverySettings } from '@tablelock/outbox';
import { TEST_AUDIT, type TestDatabase } from '@tablelock/test-support';
import { type Logger, pino } from 'pino';
import { DEFAULT_EXPORT_LIMITS, type ExportLimits } from '../../src/http/export/exportLimits';
import { startApiServer } from '../../src/http/server';
import type { CredentialChange } from '../../src/ports/credentialChangeFeed';
import type { OidcProvider } from '../../src/ports/oidcProvider';
import type { SortIndexes } from '../../src/ports/sortIndexes';
import { createApiServices } from '../../src/process/createApiServices';
import type { TypedDocumentString } from '../generated/graphql';

export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; retryAfterSeconds?: number } }[];
}

/** A caller of the API over real HTTP: anonymous, a logged-in user, or an API key. */
export interface TestClient {
  /** The name locks record for this caller (null when anonymous). */
  name: string | null;
  /** Headers sent with every request (cookie or Authorization). */
  headers: Record<string, string>;
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<GraphQLResponse<T>>;
}

/**
 * Sends an operation written with `graphql()` (typed by codegen from the SDL): its variables
 * and its response are checked against the schema's types.
 */
export function execute<TResult, TVariables>(
  client: TestClient,
  document: TypedDocumentString<TResult, TVariables>,
  ...[variables]: TVariables extends Record<string, never> ? [] : [variables: TVariables]
): Promise<GraphQLResponse<TResult>> {
  return client.graphql<TResult>(
    document.toString(),
    variables as Record<string, unknown> | undefined,
  );
}

export interface TestApi {
  url: string;
  anonymous: TestClient;
  /** Logs in through the `login` mutation; the client then sends the session cookie. */
  loginAs(username: string, password?: string): Promise<TestClient>;
  /** Creates an API key (straight in the database) and returns a client that sends it. */
  withApiKey(name: string, role: Role): Promise<TestClient>;
  /** A client that sends a session cookie it got elsewhere (a sign-in through the provider). */
  withSession(name: string, token: string): TestClient;
  /**
   * Resolves when this API hears a change of `principal`'s credentials announced (its
   * credential cache has forgotten them by then): call it before making the change.
   */
  credentialChangeOf(principal: CredentialChange): Promise<void>;
  /** This API's places in line it could not give up yet: its sweeper's to finish (none runs here). */
  unfinishedLeaves: UnfinishedLeaves;
  stop(): Promise<void>;
}

/** The real API server (Apollo over HTTP) on a free port, against a test database. */
export async function startTestApi(
  database: TestDatabase,
  options: {
    loginThrottle?: LoginThrottleOptions;
    sessionTtlSeconds?: number;
    allowedHosts?: string[];
    trustProxy?: number | string[];
    /** Silent unless a test wants to see what the server logs. */
    logger?: Logger;
    metricsToken?: string;
    queueReservationSeconds?: number;
    /** Places in line per user or key (MAX_WAITERS_PER_PRINCIPAL); 10 by default. */
    maxWaitersPerPrincipal?: number;
    /** False: password login only for break-glass admins (PASSWORD_LOGIN=false). */
    passwordLogin?: boolean;
    /** Single sign-on through this provider (see support/oidcSignIn.ts). */
    oidc?: OidcProvider;
    signInRateLimit?: SignInRateLimitOptions;
    /** Sort indexes as the test built them; none are built by default. */
    sortIndexes?: SortIndexes;
    /** Listen on this port (0: any free one); single sign-on needs it before the start. */
    port?: number;
    /** The shortest idle limit admins may set (IDLE_LIMIT_MIN_SECONDS); 60 by default. */
    minIdleLimitSeconds?: number;
    /** The shortest lease a caller may ask for (LEASE_MIN_SECONDS); 15 by default. */
    minLeaseSeconds?: number;
    /** How long idle keep-alive connections stay open (HTTP_KEEP_ALIVE_SECONDS). */
    keepAliveSeconds?: number;
    /** Bounds on exports shorter than the defaults, for tests of them. */
    exportLimits?: Partial<ExportLimits>;
    /** Webhook deliveries: WEBHOOK_ALLOWED_HOSTS, short clocks. */
    webhooks?: Partial<DeliverySettings>;
    /** REQUIRE_SYNC_REPLICA: no changes while no synchronous standby is attached. */
    requireSyncReplica?: boolean;
    /** HISTORY_RETENTION_DAYS; the history is kept for ever by default. */
    historyRetentionDays?: number;
    /** WARM_UP: the table page's reads once before listening; off by default, as in the suite. */
    warmUp?: boolean;
  } = {},
): Promise<TestApi> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const running = await createApiServices({
    prisma: database.prisma,
    directDatabaseUrl: database.url,
    masterSchema: 'master',
    logger,
    sessionTtlSeconds: options.sessionTtlSeconds ?? 3600,
    passwordLogin: options.passwordLogin ?? true,
    oidc: options.oidc ?? null,
    queueReservationSeconds: options.queueReservationSeconds ?? 60,
    maxWaitersPerPrincipal: options.maxWaitersPerPrincipal ?? 10,
    minIdleLimitSeconds: options.minIdleLimitSeconds ?? MIN_IDLE_LIMIT_SECONDS,
    minLeaseSeconds: options.minLeaseSeconds ?? MIN_LEASE_SECONDS,
    // Off: index builds would only cost the tests time (sortIndexes.test.ts builds its own).
    sortIndexesEnabled: false,
    requireSyncReplica: options.requireSyncReplica ?? false,
    historyRetentionDays: options.historyRetentionDays,
    ...(options.sortIndexes ? { sortIndexes: options.sortIndexes } : {}),
    ...(options.loginThrottle ? { loginThrottle: options.loginThrottle } : {}),
    ...(options.signInRateLimit ? { signInRateLimit: options.signInRateLimit } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
  });
  const server = await startApiServer({
    services: running.services,
    port: options.port ?? 0,
    host: '127.0.0.1',
    allowedHosts: options.allowedHosts ?? [],
    trustProxy: options.trustProxy ?? false,
    readiness: running.readiness,
    ...(options.keepAliveSeconds ? { keepAliveSeconds: options.keepAliveSeconds } : {}),
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    exportLimits: { ...DEFAULT_EXPORT_LIMITS, ...options.exportLimits },
    warmUp: options.warmUp ?? false,
  });
  const client = (name: string | null, headers: Record<string, string>): TestClient => ({
    name,
    headers,
    async graphql(query, variables) {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as GraphQLResponse<never>;
    },
  });
  const anonymous = client(null, {});
  return {
    url: server.url,
    anonymous,
    async loginAs(username, password = DEMO_PASSWORD) {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query:
            'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { name } }',
          variables: { u: username, p: password },
        }),
      });
      const cookie = response.headers.getSetCookie()[0]?.split(';')[0];
      if (!response.ok || !cookie) {
        throw new Error(`login as ${username} failed: ${await response.text()}`);
      }
      return client(username, { cookie });
    },
    async withApiKey(name, role) {
      const { secret } = await createApiKey(database.prisma, { name, role }, TEST_AUDIT);
      return client(`key:${name}`, { authorization: `Bearer ${secret}` });
    },
    withSession: (name, token) => client(name, { cookie: `tablelock_session=${token}` }),
    unfinishedLeaves: running.services.lockQueue.unfinishedLeaves,
    credentialChangeOf: (principal) =>
      new Promise((resolve) => {
        // The cache subscribed when the API started, so it has heard the change first.
        const stop = running.live.credentialChanges.subscribe((change) => {
          if (change.kind !== principal.kind || change.id !== principal.id) return;
          stop();
          resolve();
        });
      }),
    async stop() {
      await server.stop();
      await running.stop();
    },
  };
}
