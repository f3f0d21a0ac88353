import type { Server } from 'node:http';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  parse,
  validate,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { authenticate } from '../auth/authenticate';
import type { ApiContext, ApiServices } from '../context';
import { formatError } from '../graphql/formatError';
import { MAX_TOKENS, subscriptionValidationRules } from '../graphql/plugins/operationLimits';
import { connectionCredentials } from './connectionCredentials';
import { type ConnectionStanding, createLiveConnections } from './liveConnections';
import { createSharedSubscribe } from './sharedExecution';

/**
 * The largest WebSocket frame read; a larger one closes the connection (1009) before it is
 * buffered whole or parsed, authenticated or not. A subscription document within MAX_TOKENS
 * takes a few KiB.
 */
export const MAX_FRAME_BYTES = 64 * 1024;

/** Subscriptions open at once on one connection; each event costs work per subscription. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 20;

/** RFC 6455 "service restart": the client reconnects (and so refreshes). */
export const SERVICE_RESTART = 1012;
const MISSED_CHANGES = 'Lock changes may have been missed; reconnect and refresh.';

/** What graphql-ws keeps per connection for us (a type, as graphql-ws wants a record). */
type ConnectionState = {
  context?: ApiContext;
  standing?: ConnectionStanding;
};

/**
 * graphql-ws on the same port and path as HTTP GraphQL, for subscriptions only. A connection
 * must authenticate when it opens (see connectionCredentials) and is closed (4403) when its
 * credentials end or change. Returns a function that closes all connections.
 */
export function startSubscriptionServer(
  httpServer: Server,
  schema: GraphQLSchema,
  services: ApiServices,
  isAllowedHost: (host: string | undefined) => boolean,
): () => Promise<void> {
  const wsServer = new WebSocketServer({
    server: httpServer,
    path: '/graphql',
    maxPayload: MAX_FRAME_BYTES,
    // The same Host allow-list as HTTP (DNS rebinding), before the upgrade is accepted.
    verifyClient: ({ req }, accept) => accept(isAllowedHost(req.headers.host), 403, 'Unknown host'),
  });
  const connections = createLiveConnections(services);
  // Lock and credential changes share the one LISTEN connection: after a gap in it, anything may
  // have changed. Clients refetch what they show when they connect, and a reconnect is
  // authenticated anew, so closing every connection covers both.
  services.lockChanges.onMissed(() => {
    for (const socket of wsServer.clients) socket.close(SERVICE_RESTART, MISSED_CHANGES);
  });
  const stopRechecks = services.credentialChanges.subscribe(connections.recheck);
  const server = useServer<Record<string, unknown>, ConnectionState>(
    {
      schema,
      subscribe: createSharedSubscribe(),
      async onConnect(ctx) {
        const { request, socket } = ctx.extra;
        const credentials = connectionCredentials(request, ctx.connectionParams);
        const identity = await authenticate(services, credentials);
        if (!identity.principal || socket.readyState !== socket.OPEN) return false;
        const standing = connections.admit({
          principal: identity.principal,
          credentials,
          close: (code, reason) => socket.close(code, reason),
        });
        if (!standing) return false;
        socket.once('close', standing.remove);
        ctx.extra.standing = standing;
        ctx.extra.context = { ...services, ...identity };
        return true;
      },
      onSubscribe(ctx, id, payload) {
        // graphql-ws has already registered this subscription's id when it calls onSubscribe.
        const running = Object.keys(ctx.subscriptions).filter((other) => other !== id).length;
        if (running >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          return [
            new GraphQLError(
              `At most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions at once on one connection.`,
              { extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' } },
            ),
          ];
        }
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: MAX_TOKENS });
        } catch (error) {
          return [withCode(error as GraphQLError, 'GRAPHQL_PARSE_FAILED')];
        }
        const invalid = validate(schema, document, subscriptionValidationRules);
        if (invalid.length > 0) {
          return invalid.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED'));
        }
        if (getOperationAST(document, payload.operationName)?.operation !== 'subscription') {
          return [
            new GraphQLError(
              'Only subscriptions go over WebSocket; send queries and mutations over HTTP.',
              { extensions: { code: 'BAD_USER_INPUT' } },
            ),
          ];
        }
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: ctx.extra.context,
        };
      },
      // A subscription that fails once under way (its iterator throws) keeps its code too.
      onError: (_ctx, _id, _payload, errors) =>
        errors.map((error) => formatError(error.toJSON(), error.originalError ?? error)),
      async onNext(ctx, _id, _payload, _args, result) {
        // Held while a credential change is checked; a connection that fails the check is
        // closed by then, and graphql-ws sends nothing on a closed socket.
        await ctx.extra.standing?.holds();
        // A subscription refused as it starts answers in a result, with codes as over HTTP.
        if (!result.errors) return;
        return {
          ...result,
          errors: result.errors.map((error) => formatError(error.toJSON(), error)),
        };
      },
    },
    wsServer,
  );
  return async () => {
    stopRechecks();
    await server.dispose();
  };
}

/** The error with an `extensions.code`, as Apollo gives parse and validation errors over HTTP. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error,
    extensions: { ...error.extensions, code },
  });
}
