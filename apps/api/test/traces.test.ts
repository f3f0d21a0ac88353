import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { context, propagation, ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { createTablelockClient } from '@tablelock/client';
import {
  API_DIR,
  type ApiProcess,
  createTestApiKey,
  createTestDatabase,
  freePort,
  poll,
  startApiProcess,
  stopApiProcess,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './support/otlpReceiver';

/** How the compiled API is started with its tracing bootstrap (as `npm start` does). */
const TRACING_BOOTSTRAP = ['--import', './dist/tracing/register.js'];
const SPAN_KIND_SERVER = 2;

let database: TestDatabase;
let receiver: OtlpReceiver;
const started: ApiProcess[] = [];
let api: ApiProcess;
let apiKey: string;
let secondKey: string;

beforeAll(async () => {
  // The caller's own OpenTelemetry setup, as a service using the TS client would have it: its
  // active span travels with the client's requests as a W3C traceparent.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  receiver = await startOtlpReceiver();
  database = await createTestDatabase();
  api = await startApiProcess('traced', database.url, await freePort(), started, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    // Spans leave in batches: soon after they end, so that the test does not wait long for them.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  apiKey = await createTestApiKey(database.prisma, 'traced-etl', 'editor');
  secondKey = await createTestApiKey(database.prisma, 'traced-second', 'editor');
}, 60_000);

afterAll(async () => {
  await Promise.all(started.map(stopApiProcess));
  await database?.close();
  await receiver?.close();
  context.disable();
  propagation.disable();
});

/** A span of the caller's, as if it were working inside a trace of its own. */
function callerSpan() {
  const spanContext = {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    traceFlags: TraceFlags.SAMPLED,
  };
  return { ...spanContext, context: trace.setSpanContext(ROOT_CONTEXT, spanContext) };
}

/** `span`'s ancestors among `spans`, its parent first. */
function ancestorsOf(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const ancestors: ReceivedSpan[] = [];
  for (let current = span; ; ) {
    const parent = spans.find((candidate) => candidate.spanId === current.parentSpanId);
    if (!parent) return ancestors;
    ancestors.push(parent);
    current = parent;
  }
}

const isSql = (span: ReceivedSpan) =>
  span.attributes['db.system.name'] === 'postgresql' && span.name.startsWith('pg.query');
const isGraphqlMutation = (span: ReceivedSpan) =>
  span.attributes['graphql.operation.type'] === 'mutation';

describe('traces over OTLP', () => {
  it("one save's spans continue the caller's trace: HTTP → GraphQL → fenced save → SQL", async () => {
    const caller = callerSpan();
    const client = createTablelockClient({ url: api.url, apiKey });
    await client.withTableLock('currencies', (lock) =>
      context.with(caller.context, () =>
        lock.saveRows('currencies', {
          inserts: [{ values: { code: 'TRC', name: 'Traced', minor_units: '2', active: 'true' } }],
        }),
      ),
    );

    // Spans arrive in batches, the save's SQL possibly in a later one than the save itself.
    const { save, sql, inTrace } = await poll("the save's spans", 30_000, async () => {
      const inTrace = receiver.spans.filter((span) => span.traceId === caller.traceId);
      const save = inTrace.find((span) => span.name === 'tablelock.save');
      const sql =
        save && inTrace.filter((span) => span.parentSpanId === save.spanId && isSql(span));
      const complete = save && sql?.length && ancestorsOf(save, inTrace).at(-1)?.parentSpanId;
      return complete ? { save, sql, inTrace } : undefined;
    });

    expect(save.service).toBe('tablelock-api');
    expect(save.attributes).toMatchObject({ 'tablelock.table': 'currencies', 'tablelock.rows': 1 });
    const ancestors = ancestorsOf(save, inTrace);
    const root = ancestors.at(-1);
    // The API's first span is the HTTP request's, a child of the caller's span.
    expect(root).toMatchObject({ kind: SPAN_KIND_SERVER, parentSpanId: caller.spanId });
    const mutation = ancestors.findIndex(isGraphqlMutation);
    expect(mutation, ancestors.map((span) => span.name).join(' ← ')).toBeGreaterThanOrEqual(0);
    expect(ancestors[mutation]?.attributes['graphql.operation.name']).toBe('SaveRows');
    // The fencing check and the INSERT: statements of the save's transaction, under its span.
    expect(sql.map((span) => span.attributes['db.query.text']).join('\n')).toMatch(/INSERT INTO/);
  });

  it('a refused save is an error span by its code alone, never by its message', async () => {
    const caller = callerSpan();
    const client = createTablelockClient({ url: api.url, apiKey });
    const staleToken = await client.withTableLock(
      'currencies',
      async (lock) => lock.tokens.currencies,
    );
    const response = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${apiKey}`,
        traceparent: `00-${caller.traceId}-${caller.spanId}-01`,
      },
      body: JSON.stringify({
        query: `mutation StaleSave($token: String!, $changes: RowChanges!) {
          saveRows(table: "currencies", token: $token, changes: $changes) { saved } }`,
        variables: {
          token: staleToken,
          changes: { inserts: [{ values: { code: 'STL', name: 'Stale', minor_units: '2' } }] },
        },
      }),
    });
    const answer = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(answer.errors?.[0]?.extensions?.code).toBe('LOCK_LOST');

    const save = await poll('the refused save', 30_000, async () =>
      receiver.spans.find(
        (span) => span.traceId === caller.traceId && span.name === 'tablelock.save',
      ),
    );
    // Messages may name fencing tokens (a row scope's LOCK_LOST does): the code says enough.
    expect(save.status).toEqual({ code: 2, message: 'LOCK_LOST' });
  });

  it('a lock acquisition is a span of its own, in the GraphQL operation that asked for it', async () => {
    const acquire = await poll('an acquisition span', 30_000, async () =>
      receiver.spans.find(
        (span) =>
          span.name === 'tablelock.lock.acquire' &&
          span.attributes['tablelock.table'] === 'currencies',
      ),
    );
    expect(acquire.attributes).toMatchObject({ 'tablelock.outcome': 'granted' });
    const inTrace = receiver.spans.filter((span) => span.traceId === acquire.traceId);
    expect(ancestorsOf(acquire, inTrace).some(isGraphqlMutation)).toBe(true);
  });

  it('a wait in line is a span from joining the line to getting the lock', async () => {
    const second = createTablelockClient({ url: api.url, apiKey: secondKey });
    let waiting: Promise<string> | undefined;
    await createTablelockClient({ url: api.url, apiKey }).withTableLock('currencies', async () => {
      waiting = second.withTableLock('currencies', async () => 'acquired after waiting', {
        wait: 30,
      });
      await poll('the second key in line', 10_000, async () =>
        (await database.prisma.lockWaiter.count({ where: { editor: 'key:traced-second' } })) > 0
          ? true
          : undefined,
      );
    });
    expect(await waiting).toBe('acquired after waiting');

    const wait = await poll('the wait in line', 30_000, async () =>
      receiver.spans.find((span) => span.name === 'tablelock.wait_in_line'),
    );
    expect(wait.attributes).toMatchObject({ 'tablelock.outcome': 'acquired' });
    // The acquisition that ended the wait is its child.
    const acquisitions = await poll('the acquisition that ended the wait', 30_000, async () => {
      const children = receiver.spans.filter(
        (span) => span.parentSpanId === wait.spanId && span.name === 'tablelock.lock.acquire',
      );
      return children.length > 0 ? children : undefined;
    });
    expect(acquisitions.at(-1)?.attributes).toMatchObject({ 'tablelock.outcome': 'granted' });
  });

  it("an import's phases are spans: the file's parsing inside the dry run, then the apply's fenced save", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'traces-'));
    const file = join(dir, 'currencies.csv');
    await writeFile(file, 'code,name,minor_units,active\nTRI,Imported,2,true\n');
    const client = createTablelockClient({ url: api.url, apiKey });
    const result = await client.importFile('currencies', file, { dryRun: false });
    await rm(dir, { recursive: true });
    expect(result).toMatchObject({ applied: true, counts: { create: 1 } });

    const { dryRun, parse, save } = await poll("the import's spans", 30_000, async () => {
      const named = (name: string) => receiver.spans.find((span) => span.name === name);
      const apply = named('tablelock.import.apply');
      const save = receiver.spans.find(
        (span) => span.name === 'tablelock.save' && span.parentSpanId === apply?.spanId,
      );
      const dryRun = named('tablelock.import.dry_run');
      const parse = named('tablelock.import.parse');
      return apply && save && dryRun && parse ? { dryRun, parse, save } : undefined;
    });
    expect(dryRun.attributes).toMatchObject({
      'tablelock.table': 'currencies',
      'tablelock.rows': 1,
    });
    expect(parse.parentSpanId).toBe(dryRun.spanId);
    expect(save.attributes).toMatchObject({ 'tablelock.rows': 1, 'tablelock.saved': true });
  });
});

describe('on a clean stop', () => {
  it('the API sends the spans it still buffers before it exits', async () => {
    const buffering = await startApiProcess(
      'traced-buffering',
      database.url,
      await freePort(),
      started,
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        // Never on the schedule: only the stop can send them.
        OTEL_BSP_SCHEDULE_DELAY: '3600000',
      },
    );
    const caller = callerSpan();
    const client = createTablelockClient({ url: buffering.url, apiKey });
    await context.with(caller.context, () => client.tableChanges('currencies'));
    const ofTheCall = () => receiver.spans.filter((span) => span.traceId === caller.traceId);
    expect(ofTheCall()).toEqual([]);

    await stopApiProcess(buffering);
    expect(buffering.child.exitCode).toBe(0);
    expect(ofTheCall()).toContainEqual(
      expect.objectContaining({ kind: SPAN_KIND_SERVER, parentSpanId: caller.spanId }),
    );
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  /** The OpenTelemetry modules node loaded once the bootstrap ran (none but the API: a no-op). */
  async function openTelemetryModulesLoaded(env: NodeJS.ProcessEnv): Promise<string[]> {
    const {
      OTEL_EXPORTER_OTLP_ENDPOINT: _endpoint,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: _tracesEndpoint,
      OTEL_SDK_DISABLED: _disabled,
      ...inherited
    } = process.env;
    const script =
      "console.log(JSON.stringify(Object.keys(require.cache).filter((path) => path.includes('/@opentelemetry/'))))";
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...TRACING_BOOTSTRAP, '-e', script],
      { cwd: API_DIR, env: { ...inherited, ...env } },
    );
    return JSON.parse(stdout) as string[];
  }

  it('loads no OpenTelemetry SDK or instrumentation at all', async () => {
    expect(await openTelemetryModulesLoaded({})).toEqual([]);
    // OpenTelemetry's own off switch wins over an endpoint.
    expect(
      await openTelemetryModulesLoaded({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_SDK_DISABLED: 'true',
      }),
    ).toEqual([]);
    // The control: with the endpoint set, the same check sees the SDK and the instrumentations.
    const loaded = await openTelemetryModulesLoaded({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    });
    expect(loaded.some((path) => path.includes('/@opentelemetry/sdk-node/'))).toBe(true);
    expect(loaded.some((path) => path.includes('/@opentelemetry/instrumentation-pg/'))).toBe(true);
  });
});
