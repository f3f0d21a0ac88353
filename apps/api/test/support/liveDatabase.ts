import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { type LiveFeeds, startLiveFeeds } from '../../src/live/liveFeeds';

/** A test file's own database, and this process's live feeds on it (its LISTEN connection). */
export interface LiveDatabase {
  database: TestDatabase;
  live: LiveFeeds;
}

/** Sets up a LiveDatabase for the calling test file (its fields are there once its tests run). */
export function useLiveDatabase(): LiveDatabase {
  const fixture = {} as LiveDatabase;
  beforeAll(async () => {
    fixture.database = await createTestDatabase();
    fixture.live = await startLiveFeeds(fixture.database.url, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await fixture.live?.close();
    await fixture.database?.close();
  });
  return fixture;
}
