import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import { inAnswerScope } from '@tablelock/db';
import cookieParser from 'cookie-parser';
import express from 'express';
import { authenticate } from '../auth/authenticate';
import { credentialsOf } from '../auth/credentialsOf';
import type { ApiContext, ApiServices } from '../context';
import { formatError } from '../graphql/formatError';
import { clearStaleSessionCookie } from '../graphql/plugins/clearStaleSessionCookie';
import { durableAnswers } from '../graphql/plugins/durableAnswers';
import { metricsPlugin } from '../graphql/plugins/metricsPlugin';
import { apolloOperationLimits } from '../graphql/plugins/operationLimits';
import { refuseSubscriptionsOverHttp } from '../graphql/plugins/refuseSubscriptionsOverHttp';
import { requestErrors } from '../graphql/plugins/requestErrors';
import { requireAuthentication } from '../graphql/plugins/requireAuthentication';
import { requireSyncReplica } from '../graphql/plugins/requireSyncReplica';
import { schema } from '../graphql/schema';
import { warmUpTablePage } from '../graphql/warmUpTablePage';
import { startSubscriptionServer } from '../live/subscriptionServer';
import { isDatabaseUnreachable, serviceUnavailableError } from '../process/databaseUnreachable';
import { refuseBadBody } from './badBody';
import { exportEndpoint } from './export/exportEndpoint';
import { DEFAULT_EXPORT_LIMITS, type ExportLimits } from './export/exportLimits';
import { historyArchiveEndpoint } from './historyArchive/historyArchiveEndpoint';
import { createHostCheck, refuseUnknownHosts } from './hostAllowList';
import { importEndpoint } from './import/importEndpoint';
import { importErrorsEndpoint } from './import/importErrorsEndpoint';
import { DEFAULT_KEEP_ALIVE_SECONDS, keepConnectionsAlive } from './keepConnectionsAlive';
import { countHttpResponses, createMetricsAudienceCheck, metricsEndpoint } from './metricsEndpoint';
import { oidcRoutes } from './oidc/oidcRoutes';
import { type Readiness, readinessEndpoint } from './readiness';
import { noteArrival } from './requestArrival';
import { assignRequestId, requestIdOf } from './requestId';
import { apiResponseHeaders, securityHeaders } from './securityHeaders';
import { serveWebApp } from './serveWebApp';

export interface ApiServer {
  /** Base URL, e.g. http://127.0.0.1:4000 */
  url: string;
  stop(): Promise<void>;
}

export interface ApiServerOptions {
  services: ApiServices;
  port: number;
  host: string;
  /** Express's `trust proxy`: the hop count or addresses of reverse proxies in front, if any. */
  trustProxy: false | number | string[];
  /** Host names besides localhost that requests may be addressed to. */
  allowedHosts: string[];
  /** When set, `/metrics` answers only `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  /** What `/readyz` answers. */
  readiness: () => Promise<Readiness>;
  /** How long a stop waits for requests in flight before it cuts them (Apollo's default: 10 s). */
  drainMs?: number;
  /** How many exports run at once, and how long a reader may keep one (DEFAULT_EXPORT_LIMITS). */
  exportLimits?: ExportLimits;
  /** How long idle keep-alive connections stay open (DEFAULT_KEEP_ALIVE_SECONDS). */
  keepAliveSeconds?: number;
  /** The lease the web app's pages ask for (WEB_LEASE_SECONDS); unset, their own. */
  webLeaseSeconds?: number;
  /** Run the table page's first reads once before listening (WARM_UP, warmUpTablePage). */
  warmUp?: boolean;
}

const MAX_BODY = '100kb';

/**
 * Serves, on one port: GraphQL at `/graphql` (HTTP, and WebSocket for subscriptions), the probes
 * `/healthz` and `/readyz`, Prometheus `/metrics`, table exports at `/export/<table>.csv|.xlsx`,
 * imports at `POST /import/<table>` (and their errors files),
 * and the web app at every other page address.
 */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy);
  const isAllowedHost = createHostCheck(options.allowedHosts);
  const httpServer = createServer(app);
  keepConnectionsAlive(httpServer, options.keepAliveSeconds ?? DEFAULT_KEEP_ALIVE_SECONDS);
  const closeSubscriptions = startSubscriptionServer(
    httpServer,
    schema,
    options.services,
    isAllowedHost,
  );
  const apollo = new ApolloServer<ApiContext>({
    schema,
    formatError,
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    // On by default; said here because cookie sessions depend on it: a request that a browser
    // could send cross-site without a preflight (a "simple" request) is refused.
    csrfPrevention: true,
    parseOptions: apolloOperationLimits.parseOptions,
    validationRules: apolloOperationLimits.validationRules,
    plugins: [
      ...apolloOperationLimits.plugins,
      refuseSubscriptionsOverHttp,
      metricsPlugin(options.services.metrics),
      requestErrors,
      requireAuthentication,
      requireSyncReplica(options.services.replication),
      durableAnswers,
      clearStaleSessionCookie,
      // Apollo's landing page loads its script from a CDN, which the Content-Security-Policy
      // (rightly) forbids; clients and code generators use POST /graphql.
      ApolloServerPluginLandingPageDisabled(),
      // On by default, it wraps every field's resolver to gather cache hints that this schema
      // never gives; every answer is no-store (apiResponseHeaders).
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginDrainHttpServer({
        httpServer,
        ...(options.drainMs === undefined ? {} : { stopGracePeriodMillis: options.drainMs }),
      }),
      {
        async serverWillStart() {
          return { drainServer: closeSubscriptions };
        },
      },
    ],
    // Apollo pretty-prints responses by default: bytes and CPU that no client reads.
    stringifyResult: (result) => JSON.stringify(result),
  });
  await apollo.start();
  if (options.warmUp) await warmUpTablePage(apollo, options.services);

  app.use(noteArrival, assignRequestId, countHttpResponses(options.services.metrics));
  // Probes and scrapers address the instance by its bare address: no Host check for them
  // (for /metrics only with METRICS_TOKEN set).
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get(
    '/readyz',
    readinessEndpoint(
      options.readiness,
      createMetricsAudienceCheck(options.metricsToken, isAllowedHost),
    ),
  );
  app.get(
    '/metrics',
    ...metricsEndpoint(options.services.metrics, options.metricsToken, isAllowedHost),
  );
  app.use(refuseUnknownHosts(isAllowedHost));
  app.use(
    '/graphql',
    // Everything the request does runs in one answer scope, for durableAnswers to judge.
    (_req, _res, next) => inAnswerScope(next),
    apiResponseHeaders,
    cookieParser(),
    express.json({ limit: MAX_BODY }),
    expressMiddleware(apollo, {
      context: async ({ req, res }) => {
        const requestId = requestIdOf(res);
        const identity = await authenticate(options.services, credentialsOf(req)).catch((error) => {
          if (!isDatabaseUnreachable(error)) throw error;
          options.services.databaseAvailability.reportUnreachable(error);
          throw serviceUnavailableError();
        });
        return {
          ...options.services,
          ...identity,
          logger: options.services.logger.child({ requestId }),
          requestId,
          http: { request: req, response: res },
        };
      },
    }),
  );
  if (options.services.oidc) app.use(oidcRoutes(options.services, options.services.oidc));
  // Before /export/:file: a table's export always has an extension (history.csv), this has none.
  app.get(
    '/export/history',
    apiResponseHeaders,
    cookieParser(),
    historyArchiveEndpoint(
      options.services,
      (options.exportLimits ?? DEFAULT_EXPORT_LIMITS).stallMs,
    ),
  );
  app.get(
    '/export/:file',
    apiResponseHeaders,
    cookieParser(),
    exportEndpoint(options.services, options.exportLimits ?? DEFAULT_EXPORT_LIMITS),
  );
  app.post('/import/:table', apiResponseHeaders, cookieParser(), importEndpoint(options.services));
  app.get(
    ['/import/dry-runs/:id/errors.csv', '/import/dry-runs/:id/errors.xlsx'],
    apiResponseHeaders,
    cookieParser(),
    importErrorsEndpoint(options.services),
  );
  app.use(securityHeaders(), serveWebApp({ leaseSeconds: options.webLeaseSeconds }));

  app.use(refuseBadBody);

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
