import type { Queryable } from '@tablelock/db';

/** What the callback of an OpenID Connect sign-in checks the provider's answer against. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * Keeps a sign-in that is being sent to the provider, for `ttlSeconds`. Sign-ins never finished
 * are deleted here too, so the table holds only the last few minutes' worth.
 */
export async function rememberSignIn(
  db: Queryable,
  signIn: PendingSignIn,
  ttlSeconds: number,
): Promise<void> {
  await db.$executeRaw`DELETE FROM tablelock.oidc_sign_in WHERE expires_at <= now()`;
  await db.$executeRaw`
    INSERT INTO tablelock.oidc_sign_in (state, nonce, code_verifier, expires_at)
    VALUES (${signIn.state}, ${signIn.nonce}, ${signIn.codeVerifier},
            now() + make_interval(secs => ${ttlSeconds}))`;
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
