import { parseRoleMap } from '@tablelock/identity';
import {
  CookieJarBrowser,
  freePort,
  startTestOidcProvider,
  type TestAccount,
  type TestDatabase,
  type TestOidcProvider,
  type Visit,
  type VisitOptions,
} from '@tablelock/test-support';
import { discoverOidcProvider } from '../../src/auth/oidc/oidcProvider';
import { startTestApi, type TestApi } from './testApi';

export interface OidcTestApi {
  api: TestApi;
  provider: TestOidcProvider;
  /**
   * Signs `subject` in from a fresh browser, through the provider's real login page, up to
   * where the app sends the browser back (`/`, or `/login?signInError=...`).
   */
  signIn(subject: string, options?: Pick<VisitOptions, 'rewrite'>): Promise<SignInEnd>;
  stop(): Promise<void>;
}

export interface SignInEnd {
  browser: CookieJarBrowser;
  /** Where the app sent the browser at the end. */
  landedAt: URL;
  /** The session cookie, if one was set. */
  session: string | undefined;
}

export const ROLE_MAP = 'tablelock-admins=admin,tablelock-editors=editor,*=viewer';

/** The API with single sign-on through a real oidc-provider on 127.0.0.1. */
export async function startOidcTestApi(
  database: TestDatabase,
  options: {
    accounts: TestAccount[];
    roleMap?: string;
  } & Omit<NonNullable<Parameters<typeof startTestApi>[1]>, 'oidc' | 'port'>,
): Promise<OidcTestApi> {
  const { accounts, roleMap, ...apiOptions } = options;
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const provider = await startTestOidcProvider({
    accounts,
    redirectUri: `${appUrl}/auth/oidc/callback`,
    postLogoutRedirectUri: `${appUrl}/login`,
  });
  const oidc = await discoverOidcProvider({
    issuer: new URL(provider.issuer),
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    redirectUrl: new URL(`${appUrl}/auth/oidc/callback`),
    providerName: 'Test IdP',
    roleClaim: 'groups',
    roleMap: parseRoleMap(roleMap ?? ROLE_MAP),
    usernameClaim: 'preferred_username',
    scopes: 'openid profile email groups',
  });
  const api = await startTestApi(database, { ...apiOptions, port, oidc });
  const backAtApp = (next: URL) =>
    next.origin === appUrl && !next.pathname.startsWith('/auth/oidc/');
  return {
    api,
    provider,
    async signIn(subject, { rewrite } = {}) {
      const browser = new CookieJarBrowser();
      const loginPage = await browser.visit(`${appUrl}/auth/oidc/login`, {
        ...(rewrite ? { rewrite } : {}),
        stopAt: backAtApp,
      });
      const end = backAtApp(loginPage.url)
        ? loginPage
        : await browser.visit(formAction(loginPage), {
            form: { prompt: 'login', login: subject, password: 'any password' },
            ...(rewrite ? { rewrite } : {}),
            stopAt: backAtApp,
          });
      return {
        browser,
        landedAt: end.url,
        session: await browser.cookie(appUrl, 'tablelock_session'),
      };
    },
    async stop() {
      await api.stop();
      await provider.stop();
    },
  };
}

/** The login form's address on the provider's page. */
function formAction(page: Visit): URL {
  const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
  if (!action)
    throw new Error(`no form on ${page.url} (${page.status}): ${page.body.slice(0, 300)}`);
  return new URL(action.replaceAll('&amp;', '&'), page.url);
}
