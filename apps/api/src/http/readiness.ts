import { type PrismaClient, pendingMigrations } from '@tablelock/db';
import type { RequestHandler } from 'express';

export type Readiness = { ready: true } | { ready: false; reason: string };

// A probe must get its answer even when the database does not answer at all.
const DATABASE_TIMEOUT_MS = 2_000;

/**
 * Whether this instance can serve: the database answers, every migration is applied, and the
 * live feed is listening (without it, open pages would miss changes).
 */
export function createReadinessCheck(
  prisma: PrismaClient,
  isListening: () => boolean,
  migrationsDirectory?: string,
): () => Promise<Readiness> {
  return async () => {
    let pending: string[];
    try {
      pending = await withTimeout(
        pendingMigrations(prisma, migrationsDirectory),
        DATABASE_TIMEOUT_MS,
      );
    } catch {
      return { ready: false, reason: 'the database does not answer' };
    }
    if (pending.length > 0) {
      return { ready: false, reason: `migrations not applied: ${pending.join(', ')}` };
    }
    if (!isListening()) return { ready: false, reason: 'the live feed is not listening' };
    return { ready: true };
  };
}

/** `GET /readyz`: 200 when ready, else 503 with the reason. */
export function readinessEndpoint(check: () => Promise<Readiness>): RequestHandler {
  return async (_request, response) => {
    const readiness = await check();
    if (readiness.ready) response.json({ status: 'ready' });
    else response.status(503).json({ status: 'not ready', reason: readiness.reason });
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
