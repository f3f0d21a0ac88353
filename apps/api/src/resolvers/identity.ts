import {
  createApiKey,
  createUser,
  IdentityError,
  listApiKeys,
  listUsers,
  logIn,
  revokeApiKey,
  revokeSession,
  updateUser,
} from '@tablelock/identity';
import { releaseLocksOf } from '@tablelock/lock';
import { requireRole } from '../auth/requireRole';
import { SESSION_COOKIE, sessionCookieOptions } from '../auth/sessionCookie';
import type { ApiContext } from '../context';
import type { MutationResolvers, QueryResolvers } from '../generated/graphql';

export const me: QueryResolvers['me'] = (_parent, _args, { principal }) => principal;

export const users: QueryResolvers['users'] = (_parent, _args, context) => {
  requireRole(context, 'admin');
  return listUsers(context.prisma);
};

export const apiKeys: QueryResolvers['apiKeys'] = (_parent, _args, context) => {
  requireRole(context, 'admin');
  return listApiKeys(context.prisma);
};

export const login: MutationResolvers['login'] = async (
  _parent,
  { username, password },
  context,
) => {
  const { request, response } = httpExchange(context);
  const { principal, token } = await logIn(context.prisma, context.loginThrottle, {
    username,
    password,
    ip: request.ip ?? 'unknown',
    sessionTtlSeconds: context.sessionTtlSeconds,
  });
  // A new login replaces the session the browser had (no session fixation).
  if (context.sessionToken) await revokeSession(context.prisma, context.sessionToken);
  response.cookie(SESSION_COOKIE, token, sessionCookieOptions(request, context.sessionTtlSeconds));
  return principal;
};

/** Ends the session and releases the user's locks: a user who logged out edits nothing. */
export const logout: MutationResolvers['logout'] = async (_parent, _args, context) => {
  const { request, response } = httpExchange(context);
  response.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
  if (!context.sessionToken) return false;
  await revokeSession(context.prisma, context.sessionToken);
  if (context.principal?.kind === 'user') {
    await releaseLocksOf(context.prisma, context.principal.name, 'logout');
  }
  return true;
};

function httpExchange(context: ApiContext) {
  if (!context.http) throw new IdentityError('BAD_USER_INPUT', 'Log in and out over HTTP.');
  return context.http;
}

export const createUserResolver: MutationResolvers['createUser'] = (_parent, args, context) => {
  requireRole(context, 'admin');
  return createUser(context.prisma, args);
};

export const updateUserResolver: MutationResolvers['updateUser'] = (_parent, args, context) => {
  requireRole(context, 'admin');
  return updateUser(context.prisma, args);
};

export const createApiKeyResolver: MutationResolvers['createApiKey'] = (
  _parent,
  { name, role },
  context,
) => {
  const admin = requireRole(context, 'admin');
  return createApiKey(context.prisma, { name, role, createdBy: admin.name });
};

export const revokeApiKeyResolver: MutationResolvers['revokeApiKey'] = (
  _parent,
  { name },
  context,
) => {
  requireRole(context, 'admin');
  return revokeApiKey(context.prisma, name);
};
