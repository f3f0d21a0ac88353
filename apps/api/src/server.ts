import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import cookieParser from 'cookie-parser';
import express from 'express';
import { authenticateRequest } from './auth/authenticateRequest';
import { requireAuthentication } from './auth/requireAuthentication';
import type { ApiContext, ApiServices } from './context';
import { createErrorFormatter } from './formatError';
import { schema } from './schema';

export interface ApiServer {
  /** Base URL, e.g. http://127.0.0.1:4000 */
  url: string;
  stop(): Promise<void>;
}

export interface ApiServerOptions {
  services: ApiServices;
  port: number;
  host: string;
  /** Express's `trust proxy`: set when behind a reverse proxy, so client IPs and HTTPS are seen. */
  trustProxy?: boolean | string | number;
}

const MAX_BODY = '100kb';

// Limits on what one operation may ask for. Our own queries stay far below them; the standard
// introspection query (as code generators send it) nests about 13 deep.
const armor = new ApolloArmor({
  maxDepth: { n: 15, ignoreIntrospection: false },
  costLimit: { maxCost: 5000 },
  maxAliases: { n: 20 },
  maxTokens: { n: 2000 },
  maxDirectives: { n: 20 },
  blockFieldSuggestion: { enabled: true },
});

/** Serves GraphQL at `/graphql` and a health check at `/healthz` on one port. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const app = express();
  app.set('trust proxy', options.trustProxy ?? false);
  const httpServer = createServer(app);
  const protection = armor.protect();
  const apollo = new ApolloServer<ApiContext>({
    schema,
    formatError: createErrorFormatter(options.services.logger),
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    // On by default; said here because cookie sessions depend on it: a request that a browser
    // could send cross-site without a preflight (a "simple" request) is refused.
    csrfPrevention: true,
    validationRules: protection.validationRules,
    plugins: [
      ...protection.plugins,
      requireAuthentication,
      ApolloServerPluginDrainHttpServer({ httpServer }),
    ],
    // Apollo pretty-prints responses by default: bytes and CPU that no client reads.
    stringifyResult: (result) => JSON.stringify(result),
  });
  await apollo.start();

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(
    '/graphql',
    cookieParser(),
    express.json({ limit: MAX_BODY }),
    expressMiddleware(apollo, {
      context: async ({ req, res }) => ({
        ...options.services,
        ...(await authenticateRequest(options.services, req)),
        request: req,
        response: res,
      }),
    }),
  );

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, resolve);
  });
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${port}`,
    stop: () => apollo.stop(),
  };
}
