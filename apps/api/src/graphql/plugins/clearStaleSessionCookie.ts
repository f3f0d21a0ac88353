import type { ApolloServerPlugin } from '@apollo/server';
import { SESSION_COOKIE, sessionCookieOptions } from '../../auth/sessionCookie';
import type { ApiContext } from '../../context';

/**
 * A session cookie that names no live session is cleared by the response, whatever the
 * operation and its outcome, so that the browser stops sending it; unless the response sets a
 * new session cookie itself (a login).
 */
export const clearStaleSessionCookie: ApolloServerPlugin<ApiContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ contextValue }) {
        if (!contextValue.staleSessionCookie || !contextValue.http) return;
        const { request, response } = contextValue.http;
        const setCookies = [response.getHeader('set-cookie') ?? []].flat().map(String);
        if (setCookies.some((header) => header.startsWith(`${SESSION_COOKIE}=`))) return;
        response.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
      },
    };
  },
};
