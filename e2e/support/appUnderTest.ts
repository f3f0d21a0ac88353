import { freePort } from '@tablelock/test-support/freePort';
import { startTestOidcProvider } from '@tablelock/test-support/oidcProvider';
import { SSO_ACCOUNTS, SSO_PROVIDER_NAME } from './singleSignOn';
import { type RunningApp, startApp } from './startApp';

/** The shortest idle limit an admin may set in the app under test (production's: 60 s). */
export const SHORTEST_IDLE_LIMIT_SECONDS = 10;

/**
 * The real app (startApp) with single sign-on through a real OpenID provider (oidc-provider,
 * in this process) that knows only this app's redirect URI: one of each per Playwright worker,
 * so workers never share a database. Stopping it stops both. `settings`: more of the app's
 * settings (the project's `appSettings`: support/shortClocks.ts).
 */
export async function startAppUnderTest(
  settings: Record<string, string> = {},
): Promise<RunningApp> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Single sign-on beside the password form (which the other tests use): the provider's
  // accounts sign in on its own login page.
  const provider = await startTestOidcProvider({
    accounts: SSO_ACCOUNTS,
    redirectUri: `${baseUrl}/auth/oidc/callback`,
    postLogoutRedirectUri: `${baseUrl}/login`,
  });
  const app = await startApp({
    port,
    env: {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_REDIRECT_URL: `${baseUrl}/auth/oidc/callback`,
      OIDC_PROVIDER_NAME: SSO_PROVIDER_NAME,
      OIDC_SCOPES: 'openid profile email groups',
      OIDC_ROLE_MAP: 'tablelock-admins=admin,tablelock-editors=editor,*=viewer',
      // Idle limits of seconds, so that idle-release.spec.ts sees a lock released for
      // inactivity without waiting a minute (the tables it does not set keep 15 minutes).
      IDLE_LIMIT_MIN_SECONDS: String(SHORTEST_IDLE_LIMIT_SECONDS),
      // webhooks-admin.spec.ts's receiver listens on the loopback address.
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      ...settings,
    },
  }).catch(async (error: unknown) => {
    await provider.stop();
    throw error;
  });
  return {
    ...app,
    async stop() {
      await app.stop();
      await provider.stop();
    },
  };
}
