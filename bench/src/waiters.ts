import { createPrismaClient } from '@tablelock/db';
import { createApiKey } from '@tablelock/identity';
import { resetLockRegistry } from '@tablelock/test-support';
import { startApiProcess } from './apiProcess';
import { openBenchDatabase } from './benchDatabase';
import { measureWaiterRelease } from './scenarios/waiterRelease';

/**
 * What one release costs with many HTTP waiters in line (issue 22, item 12): `pnpm --filter
 * @tablelock/bench waiters [count…]`. TABLELOCK_BENCH_API_DIR measures another built checkout.
 */
const counts = process.argv.slice(2).map(Number).filter(Number.isInteger);
const RELEASES = 5;
const audit = { actor: 'bench', ip: null, logger: { info: () => {}, warn: () => {} } };

const database = await openBenchDatabase(0);
try {
  const prisma = createPrismaClient(database.url, { poolSize: 1 });
  const keys: string[] = [];
  const most = Math.max(...(counts.length > 0 ? counts : [100, 1_000]));
  for (let i = 0; i <= most; i++) {
    keys.push((await createApiKey(prisma, { name: `waiter-${i}`, role: 'editor' }, audit)).secret);
  }
  for (const count of counts.length > 0 ? counts : [100, 1_000]) {
    // The last run left the table held and its waiters' rows behind.
    await resetLockRegistry(prisma);
    const api = await startApiProcess(database.url, { poolSize: 10 });
    const [holder = '', ...waiters] = keys.slice(0, count + 1);
    const result = await measureWaiterRelease(api, database.url, holder, waiters, RELEASES);
    console.log(JSON.stringify(result));
  }
  await prisma.$disconnect();
} finally {
  await database.close();
}
