import { once } from 'node:events';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrismaClient, migrationsDir } from '@tablelock/db';
import { createTestDatabase, freePort, type TestDatabase } from '@tablelock/test-support';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsAudienceCheck } from '../src/http/metricsEndpoint';
import { createReadinessCheck, readinessEndpoint } from '../src/http/readiness';
import { startLiveFeeds } from '../src/live/liveFeeds';
import { startTestApi, type TestApi } from './support/testApi';

let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const listening = () => true;

/** The tests' Postgres: a primary on its first timeline, without standbys. */
const ALONE = { primary: true, timeline: 1, synchronousStandbys: [] };

describe('/readyz', () => {
  it('is 200 when the database answers, migrations are applied and the feed listens', async () => {
    const response = await fetch(`${api.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', database: ALONE });
  });

  it('is not ready while a migration of this version is not applied', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'tablelock-migrations-'));
    try {
      await cp(migrationsDir, directory, { recursive: true });
      await mkdir(join(directory, '29990101000000_from_the_future'));
      await writeFile(join(directory, '29990101000000_from_the_future/migration.sql'), 'SELECT 1;');
      const check = createReadinessCheck(database.prisma, listening, {
        migrationsDirectory: directory,
      });
      expect(await check()).toEqual({
        ready: false,
        reason: 'migrations not applied: 29990101000000_from_the_future',
        database: ALONE,
      });
    } finally {
      await rm(directory, { recursive: true });
    }
  });

  it('tells why it is not ready only to the audience of /metrics', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'tablelock-migrations-'));
    const app = express();
    const check = createReadinessCheck(database.prisma, listening, {
      migrationsDirectory: directory,
    });
    app.get(
      '/readyz',
      readinessEndpoint(
        check,
        createMetricsAudienceCheck('scrape-secret', () => true),
      ),
    );
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`;
    try {
      await cp(migrationsDir, directory, { recursive: true });
      await mkdir(join(directory, '29990101000000_from_the_future'));
      await writeFile(join(directory, '29990101000000_from_the_future/migration.sql'), 'SELECT 1;');
      const probe = await fetch(url);
      expect(probe.status).toBe(503);
      expect(await probe.json()).toEqual({ status: 'not ready' });
      const scraper = await fetch(url, { headers: { authorization: 'Bearer scrape-secret' } });
      expect(scraper.status).toBe(503);
      expect(await scraper.json()).toEqual({
        status: 'not ready',
        reason: 'migrations not applied: 29990101000000_from_the_future',
        database: ALONE,
      });
    } finally {
      server.close();
      await rm(directory, { recursive: true });
    }
  });

  it('is not ready when the database does not answer', async () => {
    const nowhere = createPrismaClient(`postgresql://tablelock@127.0.0.1:${await freePort()}/none`);
    try {
      expect(await createReadinessCheck(nowhere, listening)()).toEqual({
        ready: false,
        reason: 'the database does not answer',
      });
    } finally {
      await nowhere.$disconnect();
    }
  });

  it('is not ready once the live feed stops listening', async () => {
    const live = await startLiveFeeds(database.url, pino({ level: 'silent' }));
    const check = createReadinessCheck(database.prisma, live.isListening);
    expect(await check()).toEqual({ ready: true, database: ALONE });
    await live.close();
    expect(await check()).toEqual({
      ready: false,
      reason: 'the live feed is not listening',
      database: ALONE,
    });
  });
});
