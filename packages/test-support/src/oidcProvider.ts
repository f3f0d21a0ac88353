import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** A person the test provider knows: signs in with any password (oidc-provider's dev login). */
export interface TestAccount {
  /** The subject (`sub`); also what is typed as the login on the provider's page. */
  subject: string;
  preferredUsername: string;
  email: string;
  groups: string[];
}

/**
 * What the provider's token endpoint does wrong to the ID tokens it issues: re-signed with
 * the provider's own key for another audience or already expired, or signed with a key that
 * is not the provider's (under the provider's key id).
 */
export type IdTokenFault = 'wrongAudience' | 'expired' | 'badSignature';

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The groups the provider reports for `subject` from now on. */
  setGroups(subject: string, groups: string[]): void;
  /** Spoils every ID token issued from now on; null issues them as they are. */
  spoilIdTokens(fault: IdTokenFault | null): void;
  stop(): Promise<void>;
}

export const TEST_CLIENT_ID = 'tablelock';
const TEST_CLIENT_SECRET = 'tablelock-test-client-secret';
const SIGNING_KEY_ID = 'test-signing-key';

/**
 * A real OpenID provider (oidc-provider, OpenID Certified) on a free port of 127.0.0.1, with
 * one confidential client for tablelock (PKCE required) and the test accounts. Its login page
 * is oidc-provider's own development login (any password); consent is given up front, as for
 * a first-party app. The `groups` scope releases the `groups` claim.
 */
export async function startTestOidcProvider(options: {
  accounts: TestAccount[];
  /** tablelock's /auth/oidc/callback. */
  redirectUri: string;
  /** Where the provider may send the browser after signing out. */
  postLogoutRedirectUri: string;
}): Promise<TestOidcProvider> {
  const accounts = new Map(options.accounts.map((account) => [account.subject, account]));
  const signing = await generateKeyPair('RS256', { extractable: true });
  const signingJwk = {
    ...(await exportJWK(signing.privateKey)),
    kid: SIGNING_KEY_ID,
    alg: 'RS256',
    use: 'sig',
  };
  let fault: IdTokenFault | null = null;

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT_ID,
        client_secret: TEST_CLIENT_SECRET,
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [options.postLogoutRedirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingJwk] },
    cookies: { keys: ['test-provider-cookie-key'] },
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'name'],
      email: ['email', 'email_verified'],
      groups: ['groups'],
    },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    async findAccount(_ctx, subject) {
      const account = accounts.get(subject);
      if (!account) return undefined;
      return {
        accountId: subject,
        async claims() {
          return {
            sub: subject,
            preferred_username: account.preferredUsername,
            name: account.preferredUsername,
            email: account.email,
            email_verified: true,
            groups: account.groups,
          };
        },
      };
    },
    // A first-party app: the user is not asked to consent (oidc-provider's skip-consent recipe).
    async loadExistingGrant(ctx) {
      const { client, session, result } = ctx.oidc;
      if (!client || !session) return undefined;
      const grantId = result?.consent?.grantId || session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.clientId,
        accountId: session.accountId,
      });
      grant.addOIDCScope('openid profile email groups');
      await grant.save();
      return grant;
    },
  });
  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (fault && ctx.oidc?.route === 'token' && body?.id_token) {
      body.id_token = await spoil(body.id_token, fault, signing.privateKey);
    }
  });
  server.on('request', provider.callback());

  return {
    issuer,
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    setGroups(subject, groups) {
      const account = accounts.get(subject);
      if (!account) throw new Error(`no test account ${subject}`);
      account.groups = groups;
    },
    spoilIdTokens(next) {
      fault = next;
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function spoil(
  idToken: string,
  fault: IdTokenFault,
  providerKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'],
): Promise<string> {
  const claims = decodeJwt(idToken);
  const header = decodeProtectedHeader(idToken);
  const now = Math.floor(Date.now() / 1000);
  const spoiled =
    fault === 'wrongAudience'
      ? { ...claims, aud: 'another-app' }
      : fault === 'expired'
        ? { ...claims, iat: now - 7200, exp: now - 3600 }
        : claims;
  const key = fault === 'badSignature' ? (await generateKeyPair('RS256')).privateKey : providerKey;
  return new SignJWT(spoiled)
    .setProtectedHeader({ alg: 'RS256', kid: header.kid ?? SIGNING_KEY_ID })
    .sign(key);
}
