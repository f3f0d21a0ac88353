import type { PrismaClient, Queryable } from '@tablelock/db';
import { tooManySignInRequests } from './signInRateLimit';

/** What the callback of an OpenID Connect sign-in checks the provider's answer against. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface SignInStartOptions {
  ttlSeconds: number;
  maxPending: number;
}

/**
 * Keeps a sign-in that is being sent to the provider, for `ttlSeconds`, unless `maxPending`
 * are under way already: then TOO_MANY_REQUESTS, with the seconds until the oldest expires.
 * Sign-ins never finished are deleted here too, so the table holds only the last few minutes'
 * worth, and never more than `maxPending` rows.
 *
 * One function for one API process, whose starts take turns in memory before each takes a
 * pooled connection. Each waits for the table lock inside a transaction, holding its connection
 * meanwhile: a flood of starts at once held every connection of the pool (the lock path's too),
 * and on a busy machine those still waiting for one when Prisma's 2 s to start a transaction
 * ran out failed (P2028), sent to the login page instead of being counted.
 */
export function signInStarts(
  prisma: PrismaClient,
  options: SignInStartOptions,
): (signIn: PendingSignIn) => Promise<void> {
  let previous: Promise<unknown> = Promise.resolve();
  return (signIn) => {
    const start = previous.then(() => rememberSignIn(prisma, signIn, options));
    // The next start waits for this one to end, however it ends; its own caller hears how.
    previous = start.catch(() => undefined);
    return start;
  };
}

async function rememberSignIn(
  prisma: PrismaClient,
  signIn: PendingSignIn,
  options: SignInStartOptions,
): Promise<void> {
  const full = await prisma.$transaction(async (tx) => {
    // Starts of every API process take turns, so that the count below cannot be outrun by a
    // parallel start; takeSignIn's deletes wait for a moment too, reads do not.
    await tx.$executeRaw`LOCK TABLE tablelock.oidc_sign_in IN SHARE ROW EXCLUSIVE MODE`;
    await tx.$executeRaw`DELETE FROM tablelock.oidc_sign_in WHERE expires_at <= now()`;
    const [pending] = await tx.$queryRaw<{ count: number; oldestLeft: number | null }[]>`
      SELECT count(*)::int AS count,
             ceil(extract(epoch FROM min(expires_at) - now()))::int AS "oldestLeft"
      FROM tablelock.oidc_sign_in`;
    if ((pending?.count ?? 0) >= options.maxPending) return pending?.oldestLeft ?? 1;
    await tx.$executeRaw`
      INSERT INTO tablelock.oidc_sign_in (state, nonce, code_verifier, expires_at)
      VALUES (${signIn.state}, ${signIn.nonce}, ${signIn.codeVerifier},
              now() + make_interval(secs => ${options.ttlSeconds}))`;
    return null;
  });
  if (full !== null) throw tooManySignInRequests(full);
}

/**
 * The sign-in started with `state`, taken out so that it can be finished only once; null when
 * there is none (never started, already finished, or expired).
 */
export async function takeSignIn(db: Queryable, state: string): Promise<PendingSignIn | null> {
  const [taken] = await db.$queryRaw<(PendingSignIn & { live: boolean })[]>`
    DELETE FROM tablelock.oidc_sign_in WHERE state = ${state}
    RETURNING state, nonce, code_verifier AS "codeVerifier", expires_at > now() AS live`;
  if (!taken?.live) return null;
  return { state: taken.state, nonce: taken.nonce, codeVerifier: taken.codeVerifier };
}
