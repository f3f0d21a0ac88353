import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { ApiContext } from './context';
import { createErrorFormatter } from './formatError';
import { schema } from './schema';

export interface ApiServer {
  /** Base URL, e.g. http://127.0.0.1:4000 */
  url: string;
  stop(): Promise<void>;
}

export interface ApiServerOptions {
  context: ApiContext;
  port: number;
  host: string;
}

const MAX_BODY = '100kb';

/** Serves GraphQL at `/graphql` and a health check at `/healthz` on one port. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const app = express();
  const httpServer = createServer(app);
  const apollo = new ApolloServer<ApiContext>({
    schema,
    formatError: createErrorFormatter(options.context.logger),
    includeStacktraceInErrorResponses: false,
    // Apollo pretty-prints responses by default: bytes and CPU that no client reads.
    stringifyResult: (result) => JSON.stringify(result),
    plugins: [ApolloServerPluginDrainHttpServer({ httpServer })],
  });
  await apollo.start();

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(
    '/graphql',
    express.json({ limit: MAX_BODY }),
    expressMiddleware(apollo, { context: async () => options.context }),
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
