import type { IdTokenFault, TestAccount } from '@tablelock/test-support';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { type OidcTestApi, startOidcTestApi } from './support/oidcTestApi';
import { execute, type TestClient } from './support/testApi';

const account = (name: string, groups: string[]): TestAccount => ({
  subject: `sub-${name}`,
  preferredUsername: name === 'carol-at-idp' ? 'Carol' : name[0]?.toUpperCase() + name.slice(1),
  email: `${name}@example.com`,
  groups,
});

let database: TestDatabase;
let sso: OidcTestApi;
let admin: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  sso = await startOidcTestApi(database, {
    accounts: [
      account('dana', ['tablelock-editors', 'staff']),
      account('erin', ['tablelock-admins']),
      account('frank', ['staff']),
      account('gwen', ['tablelock-editors']),
      account('hank', ['tablelock-editors']),
      // Named like the demo viewer carol, but another person: must not become her.
      account('carol-at-idp', ['tablelock-admins']),
    ],
  });
  admin = await sso.api.loginAs('admin');
});
afterAll(async () => {
  await sso.stop();
  await database.close();
});
afterEach(() => sso.provider.spoilIdTokens(null));

const meQuery = graphql(`
  query OidcMe {
    me { name role groups roleSource }
  }
`);

const usersQuery = graphql(`
  query OidcUsers {
    users { username role roleSource groups breakGlass }
  }
`);

const authProvidersQuery = graphql(`
  query AuthProviders {
    authProviders { passwordLogin oidc { name signInUrl signOutUrl } }
  }
`);

const signInEventsQuery = graphql(`
  query OidcSecurityEvents($user: String) {
    securityEvents(filter: { user: $user }, limit: 200) {
      events { action actor subject role previousRole loginFailure signInMethod groups failureDetail }
    }
  }
`);

async function eventsAbout(user: string | null) {
  const result = await execute(admin, signInEventsQuery, { user });
  return (result.data?.securityEvents.events ?? []).toReversed();
}

async function me(session: string | undefined) {
  if (!session) throw new Error('no session cookie after the sign-in');
  return (await execute(sso.api.withSession('?', session), meQuery)).data?.me;
}

async function userNamed(username: string) {
  const result = await execute(admin, usersQuery);
  return result.data?.users.find((user) => user.username === username);
}

describe('OpenID Connect sign-in', () => {
  it('tells the login page how to sign in', async () => {
    expect((await execute(sso.api.anonymous, authProvidersQuery)).data).toEqual({
      authProviders: {
        passwordLogin: true,
        oidc: { name: 'Test IdP', signInUrl: '/auth/oidc/login', signOutUrl: '/auth/oidc/logout' },
      },
    });
  });

  it('creates the user at the first sign-in, with the role its groups map to', async () => {
    const end = await sso.signIn('sub-dana');

    expect(end.landedAt.pathname).toBe('/');
    expect(await me(end.session)).toEqual({
      name: 'dana',
      role: 'editor',
      groups: ['tablelock-editors', 'staff'],
      roleSource: 'oidc',
    });
    expect(await userNamed('dana')).toEqual({
      username: 'dana',
      role: 'editor',
      roleSource: 'oidc',
      groups: ['tablelock-editors', 'staff'],
      breakGlass: false,
    });
    expect(await eventsAbout('dana')).toEqual([
      expect.objectContaining({
        action: 'user_created',
        actor: 'oidc',
        subject: 'dana',
        role: 'editor',
        signInMethod: 'oidc',
        groups: ['tablelock-editors', 'staff'],
      }),
      expect.objectContaining({ action: 'login', actor: 'dana', signInMethod: 'oidc' }),
    ]);
  });

  it('maps admins to admin and anyone else to the * rule (viewer)', async () => {
    expect(await me((await sso.signIn('sub-erin')).session)).toMatchObject({ role: 'admin' });
    expect(await me((await sso.signIn('sub-frank')).session)).toMatchObject({
      role: 'viewer',
      groups: ['staff'],
    });
  });

  it('changes the role at the next sign-in when the groups change, and records it', async () => {
    expect(await me((await sso.signIn('sub-gwen')).session)).toMatchObject({ role: 'editor' });

    sso.provider.setGroups('sub-gwen', ['staff']);
    const second = await sso.signIn('sub-gwen');

    expect(await me(second.session)).toEqual({
      name: 'gwen',
      role: 'viewer',
      groups: ['staff'],
      roleSource: 'oidc',
    });
    expect((await eventsAbout('gwen')).map((event) => [event.action, event.actor])).toEqual([
      ['user_created', 'oidc'],
      ['login', 'gwen'],
      ['role_changed', 'oidc'],
      ['login', 'gwen'],
    ]);
    expect((await eventsAbout('gwen')).find((e) => e.action === 'role_changed')).toMatchObject({
      role: 'viewer',
      previousRole: 'editor',
      groups: ['staff'],
    });
  });

  it('keeps the role an admin gave only until the next sign-in', async () => {
    await sso.signIn('sub-dana');
    await execute(
      admin,
      graphql(`mutation OidcPromote { updateUser(username: "dana", role: admin) { roleSource } }`),
    );
    expect(await userNamed('dana')).toMatchObject({ role: 'admin', roleSource: 'local' });

    await sso.signIn('sub-dana');

    expect(await userNamed('dana')).toMatchObject({ role: 'editor', roleSource: 'oidc' });
  });

  it('never signs a provider account in as a tablelock user of the same name', async () => {
    const end = await sso.signIn('sub-carol-at-idp');

    expect(end.landedAt.pathname + end.landedAt.search).toBe('/login?signInError=username_taken');
    expect(end.session).toBeUndefined();
    expect(await userNamed('carol')).toMatchObject({ role: 'viewer', roleSource: 'local' });
    expect((await eventsAbout('carol')).at(-1)).toMatchObject({
      action: 'login_failed',
      loginFailure: 'username_taken',
      signInMethod: 'oidc',
    });
  });
});

describe('who may not sign in', () => {
  it('refuses a disabled user, and records why', async () => {
    await sso.signIn('sub-frank');
    await execute(
      admin,
      graphql(
        `mutation OidcDisable { updateUser(username: "frank", disabled: true) { disabled } }`,
      ),
    );

    const end = await sso.signIn('sub-frank');

    expect(end.landedAt.pathname + end.landedAt.search).toBe('/login?signInError=user_disabled');
    expect(end.session).toBeUndefined();
    expect((await eventsAbout('frank')).at(-1)).toMatchObject({
      action: 'login_failed',
      loginFailure: 'user_disabled',
      signInMethod: 'oidc',
    });
  });

  it('refuses a user none of whose groups maps to a role when there is no * rule', async () => {
    const strict = await startOidcTestApi(database, {
      accounts: [account('ivan', ['staff'])],
      roleMap: 'tablelock-editors=editor',
    });
    try {
      const end = await strict.signIn('sub-ivan');
      expect(end.landedAt.pathname + end.landedAt.search).toBe('/login?signInError=no_role');
      expect(end.session).toBeUndefined();
      expect(await userNamed('ivan')).toBeUndefined();
      expect((await eventsAbout('Ivan')).at(-1)).toMatchObject({
        action: 'login_failed',
        loginFailure: 'no_role',
        groups: ['staff'],
      });
    } finally {
      await strict.stop();
    }
  });
});

describe('refused sign-ins', () => {
  /** Signs hank in with `tamper`; expects the refusal, no session, no user, one failed login. */
  async function expectRefused(
    why: string,
    sign: () => ReturnType<OidcTestApi['signIn']>,
    failureDetail: RegExp,
  ) {
    const failuresBefore = (await eventsAbout('(unknown)')).length;
    const end = await sign();
    expect(end.landedAt.pathname + end.landedAt.search).toBe(`/login?signInError=${why}`);
    expect(end.session).toBeUndefined();
    expect(await userNamed('hank')).toBeUndefined();
    const failures = await eventsAbout('(unknown)');
    expect(failures).toHaveLength(failuresBefore + 1);
    expect(failures.at(-1)).toMatchObject({
      action: 'login_failed',
      loginFailure: 'sign_in_refused',
      signInMethod: 'oidc',
      failureDetail: expect.stringMatching(failureDetail),
    });
  }

  const callback = (url: URL) => url.pathname === '/auth/oidc/callback';

  it('refuses a callback whose state is not the one this browser started with', async () => {
    await expectRefused(
      'state_mismatch',
      () =>
        sso.signIn('sub-hank', {
          rewrite: (next) => {
            if (callback(next)) next.searchParams.set('state', 'forged-state');
            return next;
          },
        }),
      /^state_mismatch/,
    );
  });

  it('refuses an ID token whose nonce is not the one the sign-in sent', async () => {
    await expectRefused(
      'nonce_mismatch',
      () =>
        sso.signIn('sub-hank', {
          rewrite: (next) => {
            if (next.pathname === '/auth') next.searchParams.set('nonce', 'someone-elses-nonce');
            return next;
          },
        }),
      /nonce/,
    );
  });

  it.each<[IdTokenFault, string, RegExp]>([
    ['wrongAudience', 'wrong_audience', /"aud"/],
    ['expired', 'token_expired', /"exp"/],
    ['badSignature', 'bad_signature', /signature verification failed/],
  ])('refuses an ID token that is %s', async (fault, why, detail) => {
    sso.provider.spoilIdTokens(fault);
    await expectRefused(why, () => sso.signIn('sub-hank'), detail);
  });

  it('refuses the same answer twice: a replayed callback finds no sign-in under way', async () => {
    let answer: URL | undefined;
    const first = await sso.signIn('sub-dana', {
      rewrite: (next) => {
        if (callback(next)) answer = new URL(next);
        return next;
      },
    });
    expect(first.session).toBeDefined();
    if (!answer) throw new Error('the provider never sent the browser back');
    // The attacker replays the whole answer with the state cookie the browser had.
    await first.browser.jar.setCookie(
      `tablelock_oidc_state=${answer.searchParams.get('state')}; Path=/auth/oidc`,
      answer.href,
    );

    const replay = await first.browser.visit(answer, { stopAt: (next) => !callback(next) });

    expect(replay.url.pathname + replay.url.search).toBe('/login?signInError=sign_in_expired');
  });

  it('refuses a used code sent with a fresh sign-in: the provider will not exchange it twice', async () => {
    let usedCode: string | null = null;
    await sso.signIn('sub-dana', {
      rewrite: (next) => {
        if (callback(next)) usedCode = next.searchParams.get('code');
        return next;
      },
    });
    expect(usedCode).not.toBeNull();

    await expectRefused(
      'code_refused',
      () =>
        sso.signIn('sub-hank', {
          rewrite: (next) => {
            if (callback(next) && usedCode) next.searchParams.set('code', usedCode);
            return next;
          },
        }),
      /invalid_grant/,
    );
  });
});

describe('sign-out', () => {
  it("sends the browser to the provider's end-session endpoint, which brings it back to the login page", async () => {
    const end = await sso.signIn('sub-dana');
    const logout = await end.browser.visit(new URL('/auth/oidc/logout', sso.api.url), {
      stopAt: (next) => next.origin === sso.provider.issuer,
    });

    expect(logout.url.origin + logout.url.pathname).toBe(`${sso.provider.issuer}/session/end`);
    expect(Object.fromEntries(logout.url.searchParams)).toEqual({
      client_id: sso.provider.clientId,
      post_logout_redirect_uri: `${sso.api.url}/login`,
    });
  });
});
