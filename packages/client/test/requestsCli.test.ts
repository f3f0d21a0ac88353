import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientTestApi, startClientTestApi } from './support/clientTestApi';
import { fourEyesKeys } from './support/fourEyesKeys';
import { tablelock } from './support/runTablelock';
import { acquireTableLockMutation, submitChangeRequestMutation } from './support/testOperations';

let api: ClientTestApi;
let author: { url: string; apiKey: string };
let reviewer: { url: string; apiKey: string };

beforeAll(async () => {
  api = await startClientTestApi();
  ({ author, reviewer } = await fourEyesKeys(api, 'regions', 'importer'));
});
afterAll(() => api?.stop());

async function submitRename(id: number, name: string): Promise<string> {
  const { acquireTableLock } = await api.send(author.apiKey, acquireTableLockMutation, {
    table: 'regions',
  });
  const [row] = await api.database.prisma.$queryRaw<{ version: string }[]>`
    SELECT xmin::text AS version FROM master.regions WHERE id = ${id}`;
  const submitted = await api.send(author.apiKey, submitChangeRequestMutation, {
    table: 'regions',
    token: acquireTableLock.token,
    changes: {
      updates: [{ key: { id: String(id) }, version: row?.version ?? '', values: { name } }],
    },
    comment: 'Nightly import',
  });
  const requestId = submitted.submitChangeRequest.request?.id;
  if (!requestId) throw new Error('not submitted');
  return requestId;
}

describe('tablelock requests', () => {
  it('lists, shows and approves a request; reject needs a comment', async () => {
    const id = await submitRename(10, 'Kanto (approved)');

    const list = await tablelock(['requests', 'list', '--to-decide'], reviewer);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`^${id}\\tregions\\tpending\\tkey:importer\\t1 rows\\t`),
    );
    const own = await tablelock(['requests', 'list', '--to-decide', '--json'], author);
    expect(JSON.parse(own.stdout)).toEqual([]);

    const show = await tablelock(['requests', 'show', id], reviewer);
    expect(show.stdout).toContain(
      'update {"id":"10"}: {"name":"Kanto"} -> {"name":"Kanto (approved)"}',
    );

    const selfApproval = await tablelock(['requests', 'approve', id], author);
    expect(selfApproval.code).toBe(64);
    expect(selfApproval.stderr).toContain('Nobody decides their own change request');

    const noReason = await tablelock(['requests', 'reject', id], reviewer);
    expect(noReason.code).toBe(64);

    const approved = await tablelock(['requests', 'approve', id, '--comment', 'ok'], reviewer);
    expect(approved.stdout).toBe(`${id}: applied\n`);
    const [row] = await api.database.prisma.$queryRaw<{ name: string }[]>`
      SELECT name FROM master.regions WHERE id = 10`;
    expect(row?.name).toBe('Kanto (approved)');
  });
});
