import type { PrismaClient } from '@tablelock/db';
import type { Logger } from 'pino';

/** What every resolver gets: the shared services of this API process. */
export interface ApiContext {
  prisma: PrismaClient;
  masterSchema: string;
  logger: Logger;
}
