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
  const prisma = createPrismaClient(databaseUrl, { poolSize: 4 });
  try {
    // Recorded as the bench's; its hundreds of keys need no log lines.
    const audit = { actor: 'bench', ip: null, logger: { info: () => {}, warn: () => {} } };
    const key = async (name: string, role: 'viewer' | 'editor') =>
      (await createApiKey(prisma, { name, role }, audit)).secret;
    return {
      editors: await Promise.all(
        Array.from({ length: clients }, (_, i) => key(`bench-${i}`, 'editor')),
      ),
      racers: await Promise.all(
        Array.from({ length: racers }, (_, i) => key(`racer-${i}`, 'editor')),
      ),
      viewer: await key('bench-reader', 'viewer'),
    };
  } finally {
    await prisma.$disconnect();
  }
}
