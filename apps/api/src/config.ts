import { join } from 'node:path';
import { isPostgresUrl } from '@tablelock/db';
import { parseRoleMap } from '@tablelock/identity';
import {
  MAX_IDLE_LIMIT_SECONDS,
  MAX_LEASE_SECONDS,
  MIN_IDLE_LIMIT_SECONDS,
  MIN_LEASE_SECONDS,
} from '@tablelock/lock';
import { WriteGuard } from '@tablelock/master-data';
import { z } from 'zod';
import { apiPackageDir } from './apiPackageDir';
import { DEFAULT_KEEP_ALIVE_SECONDS } from './http/keepConnectionsAlive';
import type { OidcSettings } from './ports/oidcSettings';
import type { RetentionSettings } from './retention/retentionSweeper';

const repoRoot = join(apiPackageDir, '../..');

/** libpq's URL, which may list several servers (`postgres://u:p@h1:5432,h2:5433/db`). */
const postgresUrl = z.string().refine(isPostgresUrl, 'Expected a postgres:// URL.');

const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  /**
   * Which reverse proxies may say who the client is (X-Forwarded-For): a hop count, or their
   * addresses/subnets (`loopback`, `10.0.0.0/8`, ...). Never "everything": a client could then
   * name any address and so escape the login throttle.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .refine((value) => value !== 'true', {
      message:
        'TRUST_PROXY=true would trust an X-Forwarded-For that any client can forge; set the number of proxies in front (e.g. 1) or their addresses (e.g. loopback, 10.0.0.0/8).',
    })
    .transform((value): false | number | string[] =>
      value === 'false'
        ? false
        : /^\d+$/.test(value)
          ? Number(value)
          : value.split(',').map((entry) => entry.trim()),
    ),
  /** Where users reach the app (e.g. https://tablelock.example.com): its host is allowed. */
  PUBLIC_URL: z.string().url().optional(),
  /** More host names the app answers to (comma-separated), besides localhost and PUBLIC_URL's. */
  ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim())
        .filter((host) => host !== ''),
    ),
  /** Webhook hosts that may be on loopback, private or link-local addresses (comma-separated). */
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== ''),
    ),
  /**
   * How long a scheduled change request waits in line for its table at its time before it fails,
   * naming who held the table (at most the line's longest wait).
   */
  SCHEDULE_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  /**
   * How long before a scheduled change request's time whoever holds its table (whole or a row
   * scope) is told to release it by then.
   */
  SCHEDULE_WARNING_LEAD_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** How long a webhook delivery may take before it counts as failed. */
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(10),
  /**
   * An endpoint failing this long is disabled. Below the usual 24 hours only for tests, which
   * need it within seconds.
   */
  WEBHOOK_GIVE_UP_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .default(24 * 3600),
  /** The wait before a failed delivery's first retry; each next waits twice as long (to 1 h). */
  WEBHOOK_FIRST_RETRY_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  /** An external Postgres; without it the embedded one starts under TABLELOCK_DATA_DIR. */
  DATABASE_URL: postgresUrl.optional(),
  /**
   * The same database without a connection pooler (PgBouncer) in between, for what needs a
   * session of its own: the LISTEN connection of the live feed, and migrations. Defaults to
   * DATABASE_URL; only used with it.
   */
  DATABASE_DIRECT_URL: postgresUrl.optional(),
  /**
   * Keep the app's SQL texts as named prepared statements on each connection. Off behind
   * PgBouncer before 1.21 (or with its max_prepared_statements = 0) in transaction mode: a
   * statement prepared on one server connection is missing on the next.
   */
  DATABASE_PREPARED_STATEMENTS: z.stringbool().default(true),
  /** Refuse changes (not reads) while the database has no synchronous standby attached. */
  REQUIRE_SYNC_REPLICA: z.stringbool().default(false),
  MASTER_SCHEMA: z.string().min(1).max(63).default('master'),
  /**
   * `auto`: build an index when users sort a large master table by a column no index starts
   * with, so that every page of the sort is quick. Defaults to `auto` on the embedded database
   * and `off` on an external one, whose tables belong to others.
   */
  SORT_INDEXES: z.enum(['auto', 'off']).optional(),
  /**
   * The write guard of a table whose policy does not set one: OFF (no triggers), RECORD
   * (writes without the lock's token are recorded) or ENFORCE (they are refused).
   */
  WRITE_GUARD_DEFAULT: z.enum(WriteGuard).default('RECORD'),
  /** Row history older than this many days is deleted (hourly); unset: kept for ever. */
  HISTORY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  /** Lock events older than this many days are deleted (hourly, in batches); unset: kept. */
  LOCK_HISTORY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  /** Security events older than this many days are deleted (hourly, in batches); unset: kept. */
  SECURITY_EVENTS_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  /**
   * Webhook deliveries older than this many days are deleted (hourly, in batches). Unlike the
   * histories it has a default: every message to every endpoint is a row, retries too, and the
   * security events keep who sent what where for as long as they are kept.
   */
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(30),
  /** Sort indexes no sort asked for in this many days are dropped. */
  SORT_INDEX_UNUSED_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  TABLELOCK_DATA_DIR: z.string().default(join(repoRoot, '.data')),
  /**
   * Set by the start command (scripts/with-deps.mjs) to its own pid: the app stops itself when
   * that process is gone, killed with a signal that cannot be caught.
   */
  TABLELOCK_STOP_WITH_PID: z.coerce.number().int().min(1).optional(),
  /**
   * Set by the start command: where this process writes its pid, so that a stop (Ctrl+C,
   * SIGTERM) reaches the app alone. The shells and pnpm between would die of the signal and
   * report the clean stop that follows as a failed command.
   */
  TABLELOCK_APP_PID_FILE: z.string().optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * How long a stop (SIGTERM, SIGINT) lets requests in flight finish before it cuts them. The
   * whole stop takes at most 5 s more.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(120).default(10),
  /**
   * How long an idle keep-alive connection stays open: longer than the idle timeout of any load
   * balancer in front. At most 280 s, below Node's 300 s limit on a whole request.
   */
  HTTP_KEEP_ALIVE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(280)
    .default(DEFAULT_KEEP_ALIVE_SECONDS),
  /** How long a person's turn in the lock queue holds the table for them ("Notify me when free"). */
  QUEUE_RESERVATION_SECONDS: z.coerce.number().int().min(10).max(600).default(60),
  /**
   * How many places in line (waits and "notify me when free") one user or API key may hold at
   * once in one API process: beyond it TOO_MANY_WAITERS.
   */
  MAX_WAITERS_PER_PRINCIPAL: z.coerce.number().int().min(1).max(10_000).default(10),
  /**
   * The shortest idle limit admins may set. Below the usual 60 s only for tests, which need an
   * idle lock to end within seconds; the database refuses anything under 10 s.
   */
  IDLE_LIMIT_MIN_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(MAX_IDLE_LIMIT_SECONDS)
    .default(MIN_IDLE_LIMIT_SECONDS),
  /**
   * The shortest lease a caller may ask for. Below the usual 15 s only for tests, which need
   * renewals and lost leases within seconds.
   */
  LEASE_MIN_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LEASE_SECONDS)
    .default(MIN_LEASE_SECONDS),
  /**
   * The lease the web app's pages ask for; unset, their own 30 s. Shorter only for tests, which
   * need a closed tab's lock to end within seconds: it must be at least LEASE_MIN_SECONDS.
   */
  WEB_LEASE_SECONDS: z.coerce.number().int().min(1).max(MAX_LEASE_SECONDS).optional(),
  /** When set, `/metrics` answers only `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * `false`: people sign in through the OpenID provider only; a password login is refused,
   * except a break-glass admin's (made with `npm run cli -- create-break-glass-admin`).
   */
  PASSWORD_LOGIN: z.stringbool().default(true),
  /**
   * Before the server listens, run the table page's first reads once (a few hundred ms of CPU),
   * so that the first person to open a table after a start does not wait for a cold process.
   * The test harness turns it off for the hundreds of short-lived APIs it starts.
   */
  WARM_UP: z.stringbool().default(true),
  /** The OpenID provider (its discovery document is read at start); unset: no single sign-on. */
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** Unset for a public client (PKCE only); else sent with HTTP Basic authentication. */
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** This app's `/auth/oidc/callback` as users reach it, registered at the provider. */
  OIDC_REDIRECT_URL: z.string().url().optional(),
  /** Shown on the login page: "Sign in with <name>". */
  OIDC_PROVIDER_NAME: z.string().min(1).max(60).default('company account'),
  /** The claim that lists the user's groups (or roles), mapped by OIDC_ROLE_MAP. */
  OIDC_ROLE_CLAIM: z.string().min(1).default('groups'),
  /** `group=role` pairs, comma-separated; `*` matches everyone. */
  OIDC_ROLE_MAP: z
    .string()
    .default('*=viewer')
    .transform((value, context) => {
      try {
        return parseRoleMap(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /** The claim whose value becomes the user's name (what lock records show as the editor). */
  OIDC_USERNAME_CLAIM: z.string().min(1).default('preferred_username'),
  /** Scopes asked for; must include `openid`. */
  OIDC_SCOPES: z
    .string()
    .default('openid profile email')
    .refine((scopes) => scopes.split(' ').includes('openid'), {
      message: 'OIDC_SCOPES must include openid',
    }),
});

// A page lease the API would refuse leaves every page unable to start editing.
const consistentEnvironment = environment.refine(
  ({ WEB_LEASE_SECONDS, LEASE_MIN_SECONDS }) =>
    WEB_LEASE_SECONDS === undefined || WEB_LEASE_SECONDS >= LEASE_MIN_SECONDS,
  {
    path: ['WEB_LEASE_SECONDS'],
    message: 'WEB_LEASE_SECONDS must be at least LEASE_MIN_SECONDS (15 unless set).',
  },
);

export type Config = z.infer<typeof environment>;

/** Reads the settings from environment variables; a bad value stops the start with its name. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = consistentEnvironment.safeParse(env);
  if (!parsed.success) throw new Error(`Bad configuration:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** How long each history is kept: the retention sweeper's settings. */
export function retentionSettingsOf(config: Config): RetentionSettings {
  return {
    lockHistoryDays: config.LOCK_HISTORY_RETENTION_DAYS,
    securityEventsDays: config.SECURITY_EVENTS_RETENTION_DAYS,
    rowHistoryDays: config.HISTORY_RETENTION_DAYS,
    webhookDeliveriesDays: config.WEBHOOK_DELIVERY_RETENTION_DAYS,
  };
}

/** Single sign-on's settings, or null when OIDC_ISSUER is unset. */
export function oidcSettingsOf(config: Config): OidcSettings | null {
  if (!config.OIDC_ISSUER) return null;
  if (!config.OIDC_CLIENT_ID || !config.OIDC_REDIRECT_URL) {
    throw new Error(
      'Bad configuration: OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_REDIRECT_URL as well.',
    );
  }
  return {
    issuer: new URL(config.OIDC_ISSUER),
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET ?? null,
    redirectUrl: new URL(config.OIDC_REDIRECT_URL),
    providerName: config.OIDC_PROVIDER_NAME,
    roleClaim: config.OIDC_ROLE_CLAIM,
    roleMap: config.OIDC_ROLE_MAP,
    usernameClaim: config.OIDC_USERNAME_CLAIM,
    scopes: config.OIDC_SCOPES,
  };
}

/** The host names besides localhost that requests may be addressed to. */
export function allowedHostsOf(config: Config): string[] {
  const hosts = [...config.ALLOWED_HOSTS];
  if (config.PUBLIC_URL) hosts.push(new URL(config.PUBLIC_URL).hostname);
  // Bound to one address, the app is reached by that address.
  if (!['0.0.0.0', '::'].includes(config.HOST)) hosts.push(config.HOST);
  return hosts;
}
