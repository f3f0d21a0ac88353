import { once } from 'node:events';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TraceState, W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TypedDocumentString } from '../src/generated/graphql';
import { postOperation } from '../src/postOperation';

/** An API stand-in that answers every operation and keeps the headers it was sent. */
let server: http.Server;
let url: URL;
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  // The caller's OpenTelemetry, as a service with its own SDK has it.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  server = http.createServer((request, response) => {
    received.push(request.headers);
    request.resume();
    request.on('end', () =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"ok":true}}'),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  context.disable();
  propagation.disable();
});

const okQuery = new TypedDocumentString<{ ok: boolean }, Record<string, never>>('query { ok }');

async function headersSent(): Promise<IncomingHttpHeaders> {
  const answer = await postOperation({ url, authorization: 'Bearer key' }, okQuery, {});
  expect(answer).toEqual({ data: { ok: true } });
  const headers = received.at(-1);
  if (!headers) throw new Error('the request never arrived');
  return headers;
}

describe('W3C trace context', () => {
  it("sends the caller's active span as traceparent, its tracestate with it", async () => {
    const span = {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
      traceState: new TraceState('vendor=value'),
    };
    const headers = await context.with(trace.setSpanContext(ROOT_CONTEXT, span), headersSent);
    expect(headers.traceparent).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(headers.tracestate).toBe('vendor=value');
    // Beside the headers the request always had.
    expect(headers.authorization).toBe('Bearer key');
  });

  it('sends no trace headers outside any trace', async () => {
    const headers = await headersSent();
    expect(headers.traceparent).toBeUndefined();
    expect(headers.tracestate).toBeUndefined();
  });
});
