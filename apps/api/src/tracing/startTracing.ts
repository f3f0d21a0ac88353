import { register } from 'node:module';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { tracingStarted } from './runningTracing';

const SERVICE_NAME = 'tablelock-api';

/**
 * Starts OpenTelemetry's Node SDK: spans of every HTTP request, Express route, GraphQL
 * operation and `pg` statement, and the domain's own (packages/tracing), exported over OTLP/HTTP
 * (JSON) to OTEL_EXPORTER_OTLP_ENDPOINT. The SDK's other variables apply as documented
 * (OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER, OTEL_BSP_*, OTEL_EXPORTER_OTLP_HEADERS, ...). A
 * request carrying a W3C `traceparent` continues the caller's trace.
 */
export async function startTracing(): Promise<void> {
  // The app is ES modules: Node's ESM loader must let the instrumentations wrap what the app
  // imports. Only the modules they hook are intercepted; the rest load untouched.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || SERVICE_NAME,
    traceExporter: new OTLPTraceExporter(),
    // Traces only: metrics are Prometheus's (/metrics), logs pino's.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes would bury the requests worth seeing.
        ignoreIncomingRequestHook: (request) =>
          ['/healthz', '/readyz', '/metrics'].includes(request.url?.split('?')[0] ?? ''),
      }),
      new ExpressInstrumentation(),
      // The operation, never the values in its text (passwords, tokens): those are masked.
      new GraphQLInstrumentation({ allowValues: false, ignoreTrivialResolveSpans: true }),
      // Statements of requests and of the domain's spans; the sweepers' and the live feed's
      // background statements, each second, would be a trace apiece.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  tracingStarted(() => sdk.shutdown());
}
