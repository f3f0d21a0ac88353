import {
  groupsOfClaim,
  IdentityError,
  recordRefusedSignIn,
  revokeSession,
  SignInRefused,
  type SignInRoute,
  signInStarts,
  signInWithOidc,
  takeSignIn,
} from '@tablelock/identity';
import cookieParser from 'cookie-parser';
import {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from 'express';
import * as openid from 'openid-client';
import { endSessionUrl } from '../../auth/oidc/oidcProvider';
import { SESSION_COOKIE, sessionCookieOptions } from '../../auth/sessionCookie';
import type { ApiServices } from '../../context';
import type { OidcProvider } from '../../ports/oidcProvider';
import { refuseFileRequest } from '../refuseFileRequest';
import { requestIdOf } from '../requestId';
import { classifySignInError, type SignInProblem } from './signInProblem';

/** Holds the state of the browser's sign-in under way; the nonce and PKCE verifier stay here. */
const STATE_COOKIE = 'tablelock_oidc_state';
const SIGN_IN_TTL_SECONDS = 600;

export const OIDC_LOGIN_PATH = '/auth/oidc/login';
export const OIDC_LOGOUT_PATH = '/auth/oidc/logout';

/**
 * The browser's side of OpenID Connect sign-in (authorization code flow with PKCE):
 * `/auth/oidc/login` sends it to the provider, `/auth/oidc/callback` checks the answer and
 * starts the usual session, `/auth/oidc/logout` sends it to the provider's sign-out. Every
 * refusal sends the browser to the login page with `?signInError=<why>` and is a security event
 * (those that match no sign-in under way only up to a bound a minute). An address over its
 * requests a minute, or a start while too many are under way, gets a coded 429.
 */
export function oidcRoutes(services: ApiServices, provider: OidcProvider): Router {
  const { settings, configuration } = provider;
  const router = Router();
  router.use(cookieParser(), (_request, response, next) => {
    response.setHeader('Cache-Control', 'no-store');
    next();
  });

  const rateLimit = services.signInRateLimit;
  const rememberSignIn = signInStarts(services.prisma, {
    ttlSeconds: SIGN_IN_TTL_SECONDS,
    maxPending: rateLimit.options.pendingSignIns,
  });
  const admit =
    (route: SignInRoute): RequestHandler =>
    async (request, response, next) => {
      try {
        await rateLimit.admit(route, request.ip ?? 'unknown');
        next();
      } catch (error) {
        // A coded JSON answer with Retry-After, as the file routes give.
        refuseFileRequest(services, response, error, services.logger);
      }
    };

  router.get(OIDC_LOGIN_PATH, admit('start'), async (request, response) => {
    const signIn = {
      state: openid.randomState(),
      nonce: openid.randomNonce(),
      codeVerifier: openid.randomPKCECodeVerifier(),
    };
    try {
      await rememberSignIn(signIn);
    } catch (error) {
      if (!(error instanceof IdentityError)) throw error;
      return refuseFileRequest(services, response, error, services.logger);
    }
    response.cookie(STATE_COOKIE, signIn.state, stateCookieOptions(request));
    const url = openid.buildAuthorizationUrl(configuration, {
      redirect_uri: settings.redirectUrl.href,
      scope: settings.scopes,
      state: signIn.state,
      nonce: signIn.nonce,
      code_challenge: await openid.calculatePKCECodeChallenge(signIn.codeVerifier),
      code_challenge_method: 'S256',
    });
    response.redirect(url.href);
  });

  router.get(
    new URL(settings.redirectUrl).pathname,
    admit('callback'),
    async (request, response) => {
      const ip = request.ip ?? 'unknown';
      const logger = services.logger.child({ requestId: requestIdOf(response) });
      const refuse = async (problem: SignInProblem, detail: string) => {
        await recordRefusedSignIn(
          services.prisma,
          { ip, logger },
          { reason: 'sign_in_refused', subject: '(unknown)', detail: `${problem}: ${detail}` },
        );
        toLoginPage(response, problem);
      };
      // Anyone can send these without starting a sign-in: recorded only up to a bound.
      const refuseUnmatched = async (problem: SignInProblem, detail: string) => {
        const { record, firstSkipped } = await rateLimit.mayRecordRefusal();
        if (record) return refuse(problem, detail);
        if (firstSkipped) {
          logger.warn(
            { limit: rateLimit.options.refusalsRecordedPerMinute },
            'more sign-in callbacks matching no sign-in under way than are recorded a minute; the rest of this minute are not recorded',
          );
        }
        toLoginPage(response, problem);
      };
      const browserState: unknown = request.cookies?.[STATE_COOKIE];
      response.clearCookie(STATE_COOKIE, stateCookieOptions(request));
      if (typeof browserState !== 'string' || browserState !== request.query.state) {
        return refuseUnmatched(
          'state_mismatch',
          'the state is not the one this browser started with',
        );
      }
      const signIn = await takeSignIn(services.prisma, browserState);
      if (!signIn) {
        return refuseUnmatched(
          'sign_in_expired',
          'no sign-in under way for this state (used or expired)',
        );
      }
      // The provider's answer, on the registered redirect URL (not on whatever Host was sent).
      const answer = new URL(settings.redirectUrl);
      answer.search = new URL(request.originalUrl, answer).search;
      let claims: Record<string, unknown>;
      try {
        const tokens = await openid.authorizationCodeGrant(configuration, answer, {
          pkceCodeVerifier: signIn.codeVerifier,
          expectedState: signIn.state,
          expectedNonce: signIn.nonce,
          idTokenExpected: true,
        });
        claims = await claimsOf(provider, tokens);
      } catch (error) {
        const classified = classifySignInError(error);
        if (!classified) throw error;
        return refuse(classified.problem, classified.detail);
      }
      try {
        const { token } = await signInWithOidc(
          services.prisma,
          {
            issuer: String(claims.iss),
            subject: String(claims.sub),
            username: claims[settings.usernameClaim],
            groups: groupsOfClaim(claims[settings.roleClaim]),
          },
          {
            roleMap: settings.roleMap,
            ip,
            sessionTtlSeconds: services.sessionTtlSeconds,
            logger,
          },
        );
        // A new sign-in replaces the session the browser had (no session fixation).
        const previous: unknown = request.cookies?.[SESSION_COOKIE];
        if (typeof previous === 'string') {
          await revokeSession(services.prisma, previous);
          services.credentialCache.forgetSession(previous);
        }
        response.cookie(
          SESSION_COOKIE,
          token,
          sessionCookieOptions(request, services.sessionTtlSeconds),
        );
        response.redirect('/');
      } catch (error) {
        if (!(error instanceof SignInRefused)) throw error;
        toLoginPage(response, error.reason);
      }
    },
  );

  // Only a redirect: the app ends its own session first (the `logout` mutation), then sends
  // the browser here to end the provider's, which asks the user itself.
  router.get(OIDC_LOGOUT_PATH, (_request, response) => {
    const loginPage = new URL('/login', settings.redirectUrl);
    response.redirect((endSessionUrl(provider, loginPage) ?? loginPage).href);
  });

  // Anything unexpected (the provider unreachable, the database down): logged with its
  // stack, and the browser sent back to the login page, never shown a stack trace.
  router.use(((error, _request, response, next) => {
    if (response.headersSent) return next(error);
    services.logger.error({ err: error, requestId: requestIdOf(response) }, 'OIDC sign-in failed');
    toLoginPage(response, 'sign_in_failed');
  }) satisfies ErrorRequestHandler);

  return router;
}

/**
 * The ID token's claims, completed from the UserInfo endpoint when the ID token lacks the
 * username or role claim (providers differ in what they put where). The ID token's win.
 */
async function claimsOf(
  { settings, configuration }: OidcProvider,
  tokens: openid.TokenEndpointResponse & openid.TokenEndpointResponseHelpers,
): Promise<Record<string, unknown>> {
  const idToken = tokens.claims() as Record<string, unknown> & { sub: string };
  const complete = settings.usernameClaim in idToken && settings.roleClaim in idToken;
  if (complete || !configuration.serverMetadata().userinfo_endpoint) return idToken;
  const userInfo = await openid.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
  return { ...userInfo, ...idToken };
}

function toLoginPage(response: Response, why: string) {
  response.redirect(`/login?signInError=${encodeURIComponent(why)}`);
}

function stateCookieOptions(request: Request) {
  return {
    httpOnly: true,
    // Lax: sent on the provider's redirect back (a top-level GET), never on cross-site POSTs.
    sameSite: 'lax' as const,
    secure: request.secure,
    path: '/auth/oidc',
    maxAge: SIGN_IN_TTL_SECONDS * 1000,
  };
}
