import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWebApp } from '../src/http/serveWebApp';

let distDir: string;
let server: Server;
let url: string;

beforeAll(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'tablelock-web-'));
  await writeFile(join(distDir, 'index.html'), '<!doctype html><title>tablelock</title>');
  server = express().use(serveWebApp({ distDir })).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(distDir, { recursive: true });
});

describe('serveWebApp', () => {
  it.each(['/', '/tables', '/tables/products', '/admin/locks'])(
    'answers the page %s with the app',
    async (path) => {
      const response = await fetch(`${url}${path}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<title>tablelock</title>');
    },
  );

  // An operator's probe or scraper must never mistake the app's page for an answer.
  it.each(['/readyz', '/metrics', '/graphql/v2', '/api/tables', '/healthz/deep'])(
    'answers %s, which is not a page of the app, with a JSON 404',
    async (path) => {
      const response = await fetch(`${url}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(await response.json()).toMatchObject({
        errors: [{ extensions: { code: 'NOT_FOUND' } }],
      });
    },
  );
});
