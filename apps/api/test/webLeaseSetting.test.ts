import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { serveWebApp } from '../src/http/serveWebApp';

const PAGE = '<!doctype html><html><head><title>tablelock</title></head><body></body></html>';

let distDir: string;
const servers: Server[] = [];

beforeAll(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'tablelock-web-'));
  await writeFile(join(distDir, 'index.html'), PAGE);
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await rm(distDir, { recursive: true });
});

/** The app's page at /tables/products, served with `leaseSeconds`. */
async function pageServedWith(leaseSeconds: number | undefined): Promise<string> {
  const server = express().use(serveWebApp({ distDir, leaseSeconds })).listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const response = await fetch(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}/tables/products`,
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  return response.text();
}

describe('WEB_LEASE_SECONDS', () => {
  it('is unset unless set, and never below LEASE_MIN_SECONDS', () => {
    expect(loadConfig({}).WEB_LEASE_SECONDS).toBeUndefined();
    expect(loadConfig({ WEB_LEASE_SECONDS: '20' }).WEB_LEASE_SECONDS).toBe(20);
    expect(() => loadConfig({ WEB_LEASE_SECONDS: '10' })).toThrow(
      /WEB_LEASE_SECONDS must be at least LEASE_MIN_SECONDS/,
    );
    expect(loadConfig({ WEB_LEASE_SECONDS: '10', LEASE_MIN_SECONDS: '5' }).WEB_LEASE_SECONDS).toBe(
      10,
    );
    expect(() => loadConfig({ WEB_LEASE_SECONDS: '4', LEASE_MIN_SECONDS: '5' })).toThrow(
      /WEB_LEASE_SECONDS/,
    );
  });

  it("tells the app's pages the lease to ask for", async () => {
    expect(await pageServedWith(10)).toBe(
      '<!doctype html><html><head><title>tablelock</title><meta name="tablelock-lease-seconds" content="10" /></head><body></body></html>',
    );
  });

  it('unset, serves the page as it was built: the pages keep their own lease', async () => {
    expect(await pageServedWith(undefined)).toBe(PAGE);
  });
});
