import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type OidcTestApi, startOidcTestApi } from './support/oidcTestApi';

const LIMITS = { requestsPerIpPerMinute: 5, refusalsRecordedPerMinute: 8, pendingSignIns: 12 };

let database: TestDatabase;
let sso: OidcTestApi;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
// A fresh API for each test: the limits count per process, and each test starts from none.
beforeEach(async () => {
  await database.prisma.$executeRaw`DELETE FROM tablelock.oidc_sign_in`;
  await database.prisma.$executeRaw`DELETE FROM tablelock.security_event`;
  sso = await startOidcTestApi(database, {
    accounts: [
      { subject: 'sub-ivy', preferredUsername: 'Ivy', email: 'ivy@example.com', groups: [] },
    ],
    // Each request's address is the one X-Forwarded-For names, as behind a reverse proxy.
    trustProxy: ['127.0.0.1'],
    signInRateLimit: LIMITS,
  });
});
afterEach(() => sso.stop());

/** Anonymous GETs of `path` from `from(i)`, all at once, as an attacker's script sends them. */
function flood(path: string, count: number, from: (i: number) => string) {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      fetch(new URL(path, sso.api.url), {
        redirect: 'manual',
        headers: { 'x-forwarded-for': from(i) },
      }),
    ),
  );
}

async function failedLogins() {
  const [row] = await database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM tablelock.security_event WHERE action = 'login_failed'`;
  return row?.count;
}

async function pendingSignIns() {
  const [row] = await database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM tablelock.oidc_sign_in`;
  return row?.count;
}

async function expectTooManyRequests(answer: Response) {
  expect(answer.status).toBe(429);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await answer.json()).toMatchObject({
    errors: [{ extensions: { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: expect.any(Number) } }],
  });
}

describe('anonymous floods of the sign-in routes', () => {
  it('refuses callbacks beyond the limit from one address, and records only those it answered', async () => {
    const answers = await flood('/auth/oidc/callback?state=forged&code=x', 40, () => '203.0.113.7');

    const redirected = answers.filter((answer) => answer.status === 302);
    expect(redirected).toHaveLength(LIMITS.requestsPerIpPerMinute);
    expect(redirected[0]?.headers.get('location')).toBe('/login?signInError=state_mismatch');
    const refused = answers.filter((answer) => answer.status !== 302);
    expect(refused).toHaveLength(40 - LIMITS.requestsPerIpPerMinute);
    for (const answer of refused) await expectTooManyRequests(answer);
    expect(await failedLogins()).toBe(LIMITS.requestsPerIpPerMinute);
  });

  it('records a bounded number of refused callbacks however many addresses send them', async () => {
    const answers = await flood(
      '/auth/oidc/callback?state=forged&code=x',
      60,
      (i) => `198.51.100.${i}`,
    );

    expect(answers.map((answer) => answer.status)).toEqual(Array(60).fill(302));
    expect(await failedLogins()).toBe(LIMITS.refusalsRecordedPerMinute);
  });

  it('refuses sign-in starts beyond the limit from one address, and keeps only those it answered', async () => {
    const answers = await flood('/auth/oidc/login', 40, () => '203.0.113.8');

    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(
      LIMITS.requestsPerIpPerMinute,
    );
    const refused = answers.filter((answer) => answer.status !== 302);
    expect(refused).toHaveLength(40 - LIMITS.requestsPerIpPerMinute);
    for (const answer of refused) await expectTooManyRequests(answer);
    expect(await pendingSignIns()).toBe(LIMITS.requestsPerIpPerMinute);
  });

  it('keeps a bounded number of sign-ins under way however many addresses start them', async () => {
    const answers = await flood('/auth/oidc/login', 40, (i) => `198.51.100.${i}`);

    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(LIMITS.pendingSignIns);
    const refused = answers.filter((answer) => answer.status !== 302);
    expect(refused).toHaveLength(40 - LIMITS.pendingSignIns);
    for (const answer of refused) await expectTooManyRequests(answer);
    expect(await pendingSignIns()).toBe(LIMITS.pendingSignIns);
  });

  it('still signs people in from other addresses while one address is refused', async () => {
    await flood('/auth/oidc/callback?state=forged&code=x', 20, () => '203.0.113.9');
    await flood('/auth/oidc/login', 20, () => '203.0.113.9');

    const end = await sso.signIn('sub-ivy');

    expect(end.landedAt.pathname).toBe('/');
    expect(end.session).toBeDefined();
  });
});
