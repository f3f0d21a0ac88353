import { createPrismaClient } from '@tablelock/db';
import { createApiKey } from '@tablelock/identity';

export interface BenchCredentials {
  /** One editor key per throughput client: each client is its own lock holder. */
  editors: string[];
  /** One editor key per contention racer. */
  racers: string[];
  viewer: string;
}

/** API keys for the bench's clients, created straight in the bench database. */
export async function createBenchCredentials(
  databaseUrl: string,
  clients: number,
  racers: number,
): Promise<BenchCredentials> {
  const prisma = createPrismaClient(databaseUrl, { poolSize: 1 });
  try {
    // Recorded as the bench's; its hundreds of keys need no log lines.
    const audit = { actor: 'bench', ip: null, logger: { info: () => {}, warn: () => {} } };
    const key = async (name: string, role: 'viewer' | 'editor') =>
      (await createApiKey(prisma, { name, role }, audit)).secret;
    // One after another: hundreds of transactions queued at once on the small pool wait past
    // Prisma's 2 s limit for starting one on a busy machine.
    const editorKeys = async (prefix: string, count: number) => {
      const keys: string[] = [];
      for (let i = 0; i < count; i++) keys.push(await key(`${prefix}-${i}`, 'editor'));
      return keys;
    };
    return {
      editors: await editorKeys('bench', clients),
      racers: await editorKeys('racer', racers),
      viewer: await key('bench-reader', 'viewer'),
    };
  } finally {
    await prisma.$disconnect();
  }
}
