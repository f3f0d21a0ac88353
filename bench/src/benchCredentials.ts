import { createPrismaClient } from '@tablelock/db';
import { createApiKey, createUser } from '@tablelock/identity';
import type { Subscriber } from './scenarios/fanOut';

export interface BenchCredentials {
  /** One editor key per throughput client: each client is its own lock holder. */
  editors: string[];
  /** One editor key per contention racer. */
  racers: string[];
  viewer: string;
}

// Recorded as the bench's; its hundreds of keys and users need no log lines.
const audit = { actor: 'bench', ip: null, logger: { info: () => {}, warn: () => {} } };

/** API keys for the bench's clients, created straight in the bench database. */
export async function createBenchCredentials(
  databaseUrl: string,
  clients: number,
  racers: number,
): Promise<BenchCredentials> {
  const prisma = createPrismaClient(databaseUrl, { poolSize: 1 });
  try {
    const key = async (name: string, role: 'viewer' | 'editor') =>
      (await createApiKey(prisma, { name, role }, audit)).secret;
    // One after another: hundreds of transactions queued at once on the small pool wait past
    // Prisma's 2 s limit for starting one on a busy machine.
    const editorKeys = async (prefix: string, count: number) => {
      const keys: string[] = [];
      for (let i = 0; i < count; i++) keys.push(await key(`${prefix}-${i}`, 'editor'));
      return keys;
    };
    return {
      editors: await editorKeys('bench', clients),
      racers: await editorKeys('racer', racers),
      viewer: await key('bench-reader', 'viewer'),
    };
  } finally {
    await prisma.$disconnect();
  }
}

/** The API's limit of live connections per user or API key (per process). */
const CONNECTIONS_PER_PRINCIPAL = 20;
const FAN_OUT_PASSWORD = 'bench-fan-out-password';

/**
 * Live subscribers for the fan-out: half of them on session cookies of users who logged in
 * over HTTP, half on API keys, CONNECTIONS_PER_PRINCIPAL connections per principal.
 */
export async function createFanOutSubscribers(
  databaseUrl: string,
  apiUrl: string,
  subscribers: number,
): Promise<Subscriber[]> {
  const principals = Math.ceil(subscribers / CONNECTIONS_PER_PRINCIPAL);
  const users = Math.ceil(principals / 2);
  const prisma = createPrismaClient(databaseUrl, { poolSize: 1 });
  const cookies: string[] = [];
  const keys: string[] = [];
  try {
    for (let i = 0; i < users; i++) {
      const username = `fan-user-${i}`;
      await createUser(prisma, { username, password: FAN_OUT_PASSWORD, role: 'viewer' }, audit);
      cookies.push(await logIn(apiUrl, username));
    }
    for (let i = 0; i < principals - users; i++) {
      const { secret } = await createApiKey(
        prisma,
        { name: `fan-key-${i}`, role: 'viewer' },
        audit,
      );
      keys.push(secret);
    }
  } finally {
    await prisma.$disconnect();
  }
  const principalSubscribers: Subscriber[] = [
    ...cookies.map((cookie) => ({ cookie, authorization: null })),
    ...keys.map((secret) => ({ cookie: null, authorization: `Bearer ${secret}` })),
  ];
  return Array.from(
    { length: subscribers },
    (_, i) => principalSubscribers[i % principalSubscribers.length] as Subscriber,
  );
}

/** Logs in over HTTP as a browser does; returns the session cookie (name=value). */
async function logIn(apiUrl: string, username: string): Promise<string> {
  const response = await fetch(`${apiUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { name } }',
      variables: { u: username, p: FAN_OUT_PASSWORD },
    }),
  });
  const cookie = response.headers
    .getSetCookie()
    .find((line) => line.startsWith('tablelock_session='));
  if (!response.ok || !cookie)
    throw new Error(`${username} could not log in: HTTP ${response.status}`);
  return cookie.split(';')[0] ?? '';
}
