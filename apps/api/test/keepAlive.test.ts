import { once } from 'node:events';
import { Agent, get, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as wait } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let shortLived: TestApi;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  shortLived = await startTestApi(database, { keepAliveSeconds: 1 });
});
afterAll(async () => {
  await shortLived?.stop();
  await api?.stop();
  await database?.close();
});

/** GET `url` through `agent`: the answer (read to its end) and the socket it came on. */
async function getThrough(agent: Agent, url: string) {
  const request = get(url, { agent });
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  response.resume();
  await once(response, 'end');
  return { response, socket: request.socket as Socket, reused: request.reusedSocket };
}

// A load balancer keeps idle connections to the API for its own idle timeout (60 s is common)
// and reuses them: the API must keep them open longer, or it closes one the balancer is about to
// send on (a 502). Node's default is 5 s.
describe('keep-alive', () => {
  it('keeps an idle connection open past Node’s 5 s, and says for how long', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await getThrough(agent, `${api.url}/healthz`);
      expect(first.response.headers['keep-alive']).toBe('timeout=65');
      await wait(6_000);
      const second = await getThrough(agent, `${api.url}/healthz`);
      expect(second.response.statusCode).toBe(200);
      expect(second.reused).toBe(true);
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  });

  it('closes an idle connection after HTTP_KEEP_ALIVE_SECONDS', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { response, socket } = await getThrough(agent, `${shortLived.url}/healthz`);
      expect(response.headers['keep-alive']).toBe('timeout=1');
      await once(socket, 'close');
    } finally {
      agent.destroy();
    }
  });
});
