import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tablelock/test-support/freePort';
import { startTestOidcProvider } from '@tablelock/test-support/oidcProvider';
import { SSO_ACCOUNTS, SSO_PROVIDER_NAME } from './singleSignOn';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const webDir = join(repoRoot, 'apps/web');
const apiDir = join(repoRoot, 'apps/api');
const START_TIMEOUT_MS = 90_000;

async function waitUntilHealthy(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the app exited with code ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the app did not become healthy within ${START_TIMEOUT_MS / 1000} s`);
}

/**
 * Builds the web app and the API and starts the real app as `npm start` runs it (compiled; API
 * + UI on one port) on a fresh embedded Postgres in a temporary directory, on free ports, so a
 * run never touches a developer's data or a running instance, with single sign-on through a
 * real OpenID provider (oidc-provider, in this process). Tests find the app at
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
  const dataDir = await mkdtemp(join(tmpdir(), 'tablelock-e2e-'));
  // Run as root, embedded Postgres initialises its cluster as a separate user, who must be able
  // to enter the directory (mkdtemp makes it private).
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Single sign-on through a real OpenID provider, beside the password form (which the other
  // tests use): its accounts sign in on its own login page.
  const provider = await startTestOidcProvider({
    accounts: SSO_ACCOUNTS,
    redirectUri: `${baseUrl}/auth/oidc/callback`,
    postLogoutRedirectUri: `${baseUrl}/login`,
  });
  const server = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: apiDir,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      EMBEDDED_PG_PORT: String(await freePort()),
      TABLELOCK_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
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
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    // SIGTERM lets the app stop its embedded Postgres cleanly before the directory goes.
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    await provider.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(`${baseUrl}/healthz`, server);
  } catch (error) {
    await stop();
    throw error;
  }
  process.env.TABLELOCK_E2E_URL = baseUrl;
  return stop;
}
