import {
  createApiKey,
  createUser,
  IdentityError,
  listApiKeys,
  listUsers,
  logIn,
  logOut,
  revokeSession,
} from '@tablelock/identity';
import { releaseLocksOf } from '@tablelock/lock';
import { revokeApiKeyReleasingLocks } from '../../accounts/revokeApiKeyReleasingLocks';
import { updateUserReleasingLocks } from '../../accounts/updateUserReleasingLocks';
import { SESSION_COOKIE, sessionCookieOptions } from '../../auth/sessionCookie';
import type { ApiContext } from '../../context';
import { OIDC_LOGIN_PATH, OIDC_LOGOUT_PATH } from '../../http/oidc/oidcRoutes';
import type { MutationResolvers, QueryResolvers } from '../generated/graphql';
import { callerOf } from './callerOf';
import { requestOrigin, securityAudit } from './securityAudit';

export const me: QueryResolvers['me'] = (_parent, _args, { principal }) => principal;

export const authProviders: QueryResolvers['authProviders'] = (
  _parent,
  _args,
  { passwordLogin, oidc },
) => ({
  passwordLogin,
  oidc: oidc && {
    name: oidc.settings.providerName,
    signInUrl: OIDC_LOGIN_PATH,
    signOutUrl: oidc.configuration.serverMetadata().end_session_endpoint ? OIDC_LOGOUT_PATH : null,
  },
});

export const users: QueryResolvers['users'] = (_parent, _args, context) => {
  return listUsers(context.prisma);
};

export const apiKeys: QueryResolvers['apiKeys'] = (_parent, _args, context) => {
  return listApiKeys(context.prisma);
};

export const login: MutationResolvers['login'] = async (
  _parent,
  { username, password },
  context,
) => {
  const { request, response } = httpExchange(context);
  const { principal, token } = await logIn(
    context.prisma,
    context.loginThrottle,
    {
      username,
      password,
      ip: request.ip ?? 'unknown',
      sessionTtlSeconds: context.sessionTtlSeconds,
      passwordLogin: context.passwordLogin,
    },
    context.logger,
  );
  // A new login replaces the session the browser had (no session fixation).
  if (context.sessionToken) {
    await revokeSession(context.prisma, context.sessionToken);
    context.credentialCache.forgetSession(context.sessionToken);
  }
  response.cookie(SESSION_COOKIE, token, sessionCookieOptions(request, context.sessionTtlSeconds));
  return principal;
};

/**
 * Ends the session and releases the user's locks: a user who logged out edits nothing. The
 * cookie is cleared whether or not it named a live session.
 */
export const logout: MutationResolvers['logout'] = async (_parent, _args, context) => {
  const { request, response } = httpExchange(context);
  response.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
  if (!context.sessionToken) return false;
  const username = await logOut(context.prisma, context.sessionToken, requestOrigin(context));
  context.credentialCache.forgetSession(context.sessionToken);
  if (!username) return false;
  await releaseLocksOf(context.prisma, { editor: username, actor: username, reason: 'logout' });
  return true;
};

function httpExchange(context: ApiContext) {
  if (!context.http) throw new IdentityError('BAD_USER_INPUT', 'Log in and out over HTTP.');
  return context.http;
}

export const createUserResolver: MutationResolvers['createUser'] = (_parent, args, context) => {
  const admin = callerOf(context);
  return createUser(context.prisma, args, securityAudit(context, admin));
};

export const updateUserResolver: MutationResolvers['updateUser'] = async (
  _parent,
  args,
  context,
) => {
  const admin = callerOf(context);
  const user = await updateUserReleasingLocks(context.prisma, args, securityAudit(context, admin));
  context.credentialCache.forget({ kind: 'user', id: user.id });
  return user;
};

export const createApiKeyResolver: MutationResolvers['createApiKey'] = (
  _parent,
  { name, role },
  context,
) => {
  const admin = callerOf(context);
  return createApiKey(context.prisma, { name, role }, securityAudit(context, admin));
};

export const revokeApiKeyResolver: MutationResolvers['revokeApiKey'] = async (
  _parent,
  { name },
  context,
) => {
  const admin = callerOf(context);
  const apiKey = await revokeApiKeyReleasingLocks(
    context.prisma,
    name,
    securityAudit(context, admin),
  );
  context.credentialCache.forget({ kind: 'apiKey', id: apiKey.id });
  return apiKey;
};
