import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it (ids in hex). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty or absent for a trace's root. */
  parentSpanId?: string;
  /** OTLP SpanKind: 2 a server, 3 a client. */
  kind: number;
  name: string;
  /** code 2: an error. */
  status?: { code?: number; message?: string };
  attributes: Record<string, unknown>;
  /** The exporting process's `service.name`. */
  service: string;
}

/** An OTLP/HTTP collector on 127.0.0.1 that keeps every span it is sent (JSON encoding). */
export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporter adds `/v1/traces`. */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  /** Every request it got, whatever its path or encoding. */
  readonly requests: number;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, 'attributes' | 'service'> & {
        attributes?: { key: string; value: AnyValue }[];
      })[];
    }[];
  }[];
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  let requests = 0;
  const server = http.createServer((request, response) => {
    requests++;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      spans.push(...spansOf(JSON.parse(Buffer.concat(chunks).toString()) as ExportRequest));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    get requests() {
      return requests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function spansOf(body: ExportRequest): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = String(valuesOf(resourceSpans.resource?.attributes)['service.name']);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map(({ attributes, ...span }) => ({
        ...span,
        attributes: valuesOf(attributes),
        service,
      })),
    );
  });
}

function valuesOf(attributes: { key: string; value: AnyValue }[] = []): Record<string, unknown> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue,
    ]),
  );
}
