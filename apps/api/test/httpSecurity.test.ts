import { request } from 'node:http';
import { DEMO_PASSWORD } from '@tablelock/identity';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../src/config';
import { openConnection } from './support/liveSocket';
import { startTestApi, type TestApi } from './support/testApi';

let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database, {
    allowedHosts: ['tablelock.example.com'],
    trustProxy: 1,
    loginThrottle: { failuresPerUsernameAndIp: 5, failuresPerIpPerDay: 100, blockSeconds: 60 },
  });
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with headers fetch() will not let us set (Host). */
function send(
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawResponse> {
  const { hostname, port } = new URL(api.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const login = (headers: Record<string, string>, password = DEMO_PASSWORD) =>
  send(
    'POST',
    '/graphql',
    { 'content-type': 'application/json', ...headers },
    JSON.stringify({
      query: 'mutation($p: String!) { login(username: "admin", password: $p) { name } }',
      variables: { p: password },
    }),
  );

describe('security headers (helmet)', () => {
  it('the web app answers with CSP, nosniff and a referrer policy, without X-Powered-By', async () => {
    const response = await send('GET', '/tables', {});
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('GraphQL answers with nosniff, without X-Powered-By, never to be cached', async () => {
    const response = await send('POST', '/graphql', { 'content-type': 'application/json' }, '{}');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    const answered = await send(
      'POST',
      '/graphql',
      { 'content-type': 'application/json' },
      JSON.stringify({ query: '{ __typename }' }),
    );
    expect(answered.status).toBe(200);
    expect(answered.headers['cache-control']).toBe('no-store');
  });
});

describe('Host allow-list (DNS rebinding)', () => {
  it('refuses a request for an unknown host before it runs: the public demo password is no way in', async () => {
    const response = await login({ host: 'rebind.attacker.example' });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({
      errors: [{ extensions: { code: 'FORBIDDEN' } }],
    });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it.each([
    'localhost:4000',
    '127.0.0.1',
    '[::1]:4000',
    'tablelock.example.com',
    'TableLock.Example.com:443',
  ])('serves Host %s', async (host) => {
    const response = await login({ host });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ data: { login: { name: 'admin' } } });
  });

  it('refuses a WebSocket upgrade for an unknown host, and accepts one for a known host', async () => {
    const key = await api.withApiKey('rebinding-probe', 'viewer');
    const connectionParams = { authorization: key.headers.authorization };
    const refused = await new Promise<number | undefined>((resolve) => {
      const socket = new WebSocket(
        `${api.url.replace(/^http/, 'ws')}/graphql`,
        'graphql-transport-ws',
        {
          headers: { host: 'rebind.attacker.example' },
        },
      );
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode));
      socket.once('open', () => resolve(undefined));
      socket.on('error', () => {});
    });
    expect(refused).toBe(403);
    const accepted = await openConnection({
      url: api.url,
      headers: { host: 'tablelock.example.com' },
      connectionParams,
    });
    expect(accepted.outcome).toBe('acknowledged');
    await accepted.close();
  });

  it('answers /healthz whatever the Host (probes use the bare address)', async () => {
    const response = await send('GET', '/healthz', { host: '10.1.2.3:4000' });
    expect(response.status).toBe(200);
  });

  it('answers /readyz at any Host, but shows the database set-up only at an allowed Host', async () => {
    for (const host of ['rebind.attacker.example', '10.1.2.3:4000']) {
      const anonymous = await send('GET', '/readyz', { host });
      expect(anonymous.status, host).toBe(200);
      expect(JSON.parse(anonymous.body), host).toEqual({ status: 'ready' });
    }
    const allowed = await send('GET', '/readyz', { host: 'tablelock.example.com' });
    expect(allowed.status).toBe(200);
    expect(JSON.parse(allowed.body)).toEqual({
      status: 'ready',
      database: { primary: true, timeline: 1, synchronousStandbys: [] },
    });
  });

  it('without METRICS_TOKEN, answers /metrics only for an allowed Host', async () => {
    const rebound = await send('GET', '/metrics', { host: 'rebind.attacker.example' });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).errors[0].extensions.code).toBe('FORBIDDEN');
    expect(rebound.body).not.toMatch(/tablelock_/);
    for (const host of ['127.0.0.1:4000', 'tablelock.example.com']) {
      const allowed = await send('GET', '/metrics', { host });
      expect(allowed.status, host).toBe(200);
      expect(allowed.body).toMatch(/^# HELP tablelock_/m);
    }
  });
});

describe('proxies (TRUST_PROXY)', () => {
  it('refuses TRUST_PROXY=true: the client would choose its own address', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });

  it('accepts a hop count and subnets', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toEqual([
      'loopback',
      '10.0.0.0/8',
    ]);
  });

  it('with one trusted hop, a forged X-Forwarded-For does not escape the login throttle', async () => {
    const statuses: (string | undefined)[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      // The proxy appends the real client address; what the client sent comes before it.
      const forwarded = `198.51.100.${attempt}, 203.0.113.7`;
      const response = await login({ 'x-forwarded-for': forwarded }, 'wrong');
      statuses.push(JSON.parse(response.body).errors?.[0]?.extensions?.code);
    }
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill('UNAUTHENTICATED'));
    expect(statuses.slice(5)).toEqual(['TOO_MANY_REQUESTS', 'TOO_MANY_REQUESTS']);
  });
});
