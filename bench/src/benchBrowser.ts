import { createPrismaClient } from '@tablelock/db';
import { createUser } from '@tablelock/identity';
import { type Browser, chromium, type Page } from 'playwright-core';

/** A person the browser scenarios sign in as. */
export interface BrowserUser {
  username: string;
  password: string;
  role: 'viewer' | 'editor' | 'admin';
}

/** The system's Chromium (never a downloaded one), headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

export async function createBrowserUser(databaseUrl: string, user: BrowserUser): Promise<void> {
  const prisma = createPrismaClient(databaseUrl, { poolSize: 1 });
  try {
    const audit = { actor: 'bench', ip: null, logger: { info: () => {}, warn: () => {} } };
    await createUser(prisma, user, audit);
  } finally {
    await prisma.$disconnect();
  }
}

/** A page of a new context (1440×900) signed in as `user`. */
export async function signedInPage(
  browser: Browser,
  apiUrl: string,
  user: BrowserUser,
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: apiUrl,
    viewport: { width: 1440, height: 900 },
  });
  const login = await context.request.post('/graphql', {
    headers: { 'content-type': 'application/json' },
    data: {
      query: 'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { name } }',
      variables: { u: user.username, p: user.password },
    },
  });
  if (!login.ok()) throw new Error(`login failed: HTTP ${login.status()}`);
  return context.newPage();
}
