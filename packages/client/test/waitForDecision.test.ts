import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTablelockClient, type TablelockClient } from '../src';
import { type ClientTestApi, startClientTestApi } from './support/clientTestApi';
import { fourEyesKeys } from './support/fourEyesKeys';
import { tablelock } from './support/runTablelock';
import { approveChangeRequestMutation } from './support/testOperations';

let api: ClientTestApi;
let job: TablelockClient;
let author: { url: string; apiKey: string };
let reviewer: { url: string; apiKey: string };

beforeAll(async () => {
  api = await startClientTestApi();
  ({ author, reviewer } = await fourEyesKeys(api, 'regions', 'nightly'));
  job = createTablelockClient(author);
});
afterAll(() => api?.stop());

async function regionName(id: number) {
  const [row] = await api.database.prisma.$queryRaw<{ name: string; version: string }[]>`
    SELECT name, xmin::text AS version FROM master.regions WHERE id = ${id}`;
  if (!row) throw new Error(`no region ${id}`);
  return row;
}

/** The job takes the lock of regions and submits a new name for region `id`: the request's id. */
async function submitRename(id: number, name: string): Promise<string> {
  const { version } = await regionName(id);
  const submitted = await job.withTableLock('regions', (lock) =>
    lock.submitForApproval('regions', {
      changes: { updates: [{ key: { id: String(id) }, version, values: { name } }] },
      comment: 'Nightly import',
    }),
  );
  expect(submitted.rowErrors).toEqual([]);
  if (!submitted.request) throw new Error('not submitted');
  return submitted.request.id;
}

describe('a batch job submits for approval and waits for the decision', () => {
  it('the lock waits with the request; another key approves; the wait resolves with the decision', async () => {
    const id = await submitRename(10, 'Kanto (approved)');
    // withTableLock neither released the lock nor lost it: the request holds it.
    const held = await api.database.prisma.tableLock.findUniqueOrThrow({
      where: { tableName: 'regions' },
    });
    expect(held).toMatchObject({ status: 'editing', editor: 'key:nightly', leaseExpiresAt: null });

    const decision = job.waitForDecision(id);
    // Listening (the lock watch of withTableLock has closed): the approval is heard live.
    await api.liveSubscriptionsReach(1);
    await api.send(reviewer.apiKey, approveChangeRequestMutation, { id, comment: 'Checked' });
    await expect(decision).resolves.toMatchObject({
      id,
      state: 'applied',
      decidedBy: 'key:reviewer',
      decisionComment: 'Checked',
    });
    expect((await regionName(10)).name).toBe('Kanto (approved)');
  });

  it('a decision made while its connection was down is seen when it comes back', async () => {
    const id = await submitRename(11, 'Kansai (approved)');
    const another = await api.startAnother();
    const decision = job.waitForDecision(id);
    await api.liveSubscriptionsReach(1);
    await api.restart(async () => {
      // Through another API process: the job's own hears nothing of it.
      const approved = await fetch(`${another}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${reviewer.apiKey}` },
        body: JSON.stringify({
          query: approveChangeRequestMutation.toString(),
          variables: { id, comment: 'While you were away' },
        }),
      });
      expect(await approved.json()).toEqual({
        data: { approveChangeRequest: { state: 'applied' } },
      });
    });
    await expect(decision).resolves.toMatchObject({
      id,
      state: 'applied',
      decisionComment: 'While you were away',
    });
  });

  it('tablelock requests wait prints the decision, with status 0 only when applied', async () => {
    const id = await submitRename(12, 'Tohoku (approved)');
    const waiting = tablelock(['requests', 'wait', id], author);
    await api.liveSubscriptionsReach(1);
    await api.send(reviewer.apiKey, approveChangeRequestMutation, { id, comment: 'ok' });
    const done = await waiting;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toBe(`${id}: applied by key:reviewer: ok\n`);
  });
});
