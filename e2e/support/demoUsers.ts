import { type APIRequestContext, expect, request } from '@playwright/test';
import { graphql } from './graphql';

/** The demo data's users (`pnpm seed`); each signs in with DEMO_PASSWORD. */
export type DemoUser = 'alice' | 'bob' | 'carol' | 'admin';
export const DEMO_PASSWORD = 'tablelock-demo';

/** A client of the app at `baseURL` with `user`'s session cookie, signed in through the API. */
export async function signedInRequest(
  baseURL: string | undefined,
  user: DemoUser,
): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL });
  const answer = await graphql(
    context,
    'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { name } }',
    { u: user, p: DEMO_PASSWORD },
  );
  expect(answer.errors).toBeUndefined();
  return context;
}
