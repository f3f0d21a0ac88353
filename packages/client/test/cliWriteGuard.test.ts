import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createOtherDatabaseLogin, MASTER_SCHEMA } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientTestApi, startClientTestApi } from './support/clientTestApi';
import { tablelock } from './support/runTablelock';
import { enforceWriteGuardMutation } from './support/testOperations';

const WRITER = fileURLToPath(new URL('./support/writeProduct.mjs', import.meta.url));

let api: ClientTestApi;
let etl: { url: string; apiKey: string };
let otherLogin: string;

beforeAll(async () => {
  api = await startClientTestApi();
  etl = { url: api.url, apiKey: await api.newKey('etl', 'editor') };
  const admin = await api.newKey('ops', 'admin');
  await api.send(admin, enforceWriteGuardMutation, { table: 'products' });
  otherLogin = (
    await createOtherDatabaseLogin(api.database.prisma, api.database.url, MASTER_SCHEMA)
  ).url;
});
afterAll(() => api?.stop());

const nameOf = async (id: number) =>
  (
    await api.database.prisma.$queryRaw<{ name: string }[]>`
      SELECT name FROM master.products WHERE id = ${id}`
  )[0]?.name;

/** The write job run on its own, without tablelock: its exit status and what it said. */
async function writeWithoutLock(id: number, name: string) {
  const child = spawn(process.execPath, [WRITER, otherLogin, String(id), name], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr.on('data', (chunk) => stderr.push(String(chunk)));
  const [code] = await once(child, 'close');
  return { code, stderr: stderr.join('') };
}

describe('a write by another database login to a table under ENFORCE', () => {
  it('succeeds inside `tablelock lock products -- …`, and the history names the API key', async () => {
    const run = await tablelock(
      ['lock', 'products', '--', process.execPath, WRITER, otherLogin, '7', 'Written under lock'],
      etl,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(await nameOf(7)).toBe('Written under lock');
    const [changeSet] = await api.database.prisma.changeSet.findMany({
      where: { tableName: 'products' },
      orderBy: { id: 'desc' },
      take: 1,
      include: { rows: true },
    });
    expect(changeSet).toMatchObject({
      actor: 'key:etl',
      applicationName: 'price-job',
      rowsUpdated: 1,
      rows: [{ operation: 'update' }],
    });
    expect(changeSet?.token).not.toBeNull();
  });

  it('is refused with TL002 when run without tablelock, and changes nothing', async () => {
    const before = await nameOf(8);
    const run = await writeWithoutLock(8, 'Written without lock');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^TL002: /);
    expect(run.stderr).toContain('products');
    expect(await nameOf(8)).toBe(before);
  });
});
