import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tablelock/test-support/freePort';
import { startTestOidcProvider } from '@tablelock/test-support/oidcProvider';
import { SSO_ACCOUNTS, SSO_PROVIDER_NAME } from './singleSignOn';
import { startApp } from './startApp';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const webDir = join(repoRoot, 'apps/web');
const apiDir = join(repoRoot, 'apps/api');

/**
 * Builds the web app and the API and starts the real app (startApp) with single sign-on
 * through a real OpenID provider (oidc-provider, in this process). Tests find the app at
 * TABLELOCK_E2E_URL. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  execFileSync(join(webDir, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: webDir,
    stdio: 'inherit',
  });
  execFileSync(join(apiDir, 'node_modules/.bin/tsup'), ['--silent'], {
    cwd: apiDir,
    stdio: 'inherit',
  });
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
      IDLE_LIMIT_MIN_SECONDS: '10',
    },
  }).catch(async (error: unknown) => {
    await provider.stop();
    throw error;
  });
  process.env.TABLELOCK_E2E_URL = app.url;
  // For tests that play someone writing straight to the database, past the app and its locks.
  process.env.TABLELOCK_E2E_DATABASE_URL = app.databaseUrl;
  return async () => {
    await app.stop();
    await provider.stop();
  };
}
