import type { Server } from 'node:http';
import { parse as parseCookies } from 'cookie';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  parse,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { authenticate, type Credentials } from '../auth/authenticate';
import { SESSION_COOKIE } from '../auth/sessionCookie';
import type { ApiContext, ApiServices } from '../context';

/**
 * graphql-ws on the same port and path as HTTP GraphQL, for subscriptions only. A connection
 * must authenticate: browsers by their session cookie (sent with the upgrade request, accepted
 * only from the app's own origin), other systems by `{ authorization: "Bearer <key>" }` in the
 * connection parameters. Returns a function that closes all connections.
 */
export function startSubscriptionServer(
  httpServer: Server,
  schema: GraphQLSchema,
  services: ApiServices,
): () => Promise<void> {
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' });
  const server = useServer<Record<string, unknown>, { identity?: ApiContext }>(
    {
      schema,
      async onConnect(ctx) {
        const request = ctx.extra.request;
        const authorization = ctx.connectionParams?.authorization;
        const cookie = parseCookies(request.headers.cookie ?? '')[SESSION_COOKIE] ?? null;
        const sameOrigin =
          !request.headers.origin || new URL(request.headers.origin).host === request.headers.host;
        const credentials: Credentials = {
          authorization: typeof authorization === 'string' ? authorization : null,
          sessionToken: sameOrigin ? cookie : null,
        };
        const identity = await authenticate(services, credentials);
        if (!identity.principal) return false;
        (ctx.extra as { identity?: ApiContext }).identity = {
          ...services,
          ...identity,
          credentials,
        };
        return true;
      },
      context: (ctx) => (ctx.extra as { identity?: ApiContext }).identity,
      onSubscribe(_ctx, _id, payload) {
        let document: DocumentNode;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [error as GraphQLError];
        }
        const operation = getOperationAST(document, payload.operationName);
        if (operation?.operation !== 'subscription') {
          return [
            new GraphQLError(
              'Only subscriptions go over WebSocket; send queries and mutations over HTTP.',
              {
                extensions: { code: 'BAD_USER_INPUT' },
              },
            ),
          ];
        }
      },
    },
    wsServer,
  );
  return async () => {
    await server.dispose();
  };
}
