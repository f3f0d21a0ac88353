import { expireLeases } from '@tablelock/lock';
import { syncWriteGuards } from '@tablelock/master-data';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  governedTableQuery,
  setTablePolicyMutation,
  setTakeOverRuleMutation,
} from '../support/governanceOperations';
import { isProbe, openLiveSocket, probeUntil } from '../support/liveSocket';
import { releaseByLegacyMutation } from '../support/lockApi';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  forceReleaseAs,
  refusal,
  renewTableLockMutation,
  takeOverTableLockMutation,
} from '../support/lockOperations';
import { useSignedInApi } from '../support/signedInApi';
import { execute, type TestClient } from '../support/testApi';
import {
  approveChangeRequestMutation,
  changeRequestQuery,
  changeRequestsQuery,
  rejectChangeRequestMutation,
  sendBackChangeRequestMutation,
  submitChangeRequestMutation,
  withdrawChangeRequestMutation,
} from './support/changeRequestOperations';

const signedIn = useSignedInApi();
let carol: TestClient;

beforeAll(async () => {
  await syncWriteGuards(signedIn.database.prisma, MASTER_SCHEMA, 'RECORD');
  carol = await signedIn.api.loginAs('carol');
});

beforeEach(async () => {
  await signedIn.database.prisma.changeRequest.deleteMany();
  const policy = await execute(signedIn.admin, setTablePolicyMutation, {
    table: 'suppliers',
    policy: { changesNeedApproval: true },
  });
  expect(policy.errors).toBeUndefined();
});

async function supplier(id: number) {
  const [row] = await signedIn.database.prisma.$queryRaw<{ name: string; version: string }[]>`
    SELECT name, xmin::text AS version FROM master.suppliers WHERE id = ${id}`;
  if (!row) throw new Error(`no supplier ${id}`);
  return row;
}

/** `client` takes the lock of suppliers and submits a new name for supplier `id`. */
async function submitRename(client: TestClient, id: number, name: string, keepEditing = false) {
  const lock = await acquireTableLockAs(client, 'suppliers');
  const response = await execute(client, submitChangeRequestMutation, {
    table: 'suppliers',
    token: lock.token,
    changes: {
      updates: [
        { key: { id: String(id) }, version: (await supplier(id)).version, values: { name } },
      ],
    },
    comment: 'New trading name',
    keepEditing,
  });
  const request = response.data?.submitChangeRequest.request;
  if (!request) throw new Error(JSON.stringify(response));
  return { lock, request };
}

async function requestAs(client: TestClient, id: string) {
  const response = await execute(client, changeRequestQuery, { id });
  if (!response.data?.changeRequest) throw new Error(JSON.stringify(response));
  return response.data.changeRequest;
}

async function lockRow() {
  return signedIn.database.prisma.tableLock.findUniqueOrThrow({
    where: { tableName: 'suppliers' },
  });
}

describe('change requests', () => {
  it('a submitted change waits with the lock; another editor approves it; history names both', async () => {
    const before = await supplier(1);
    const { lock, request } = await submitRename(signedIn.alice, 1, 'Sakura Trading');
    expect(request).toMatchObject({ state: 'pending', author: 'alice', rowCount: 1 });
    expect((await supplier(1)).name).toBe(before.name);

    // The lock stays with the request: alice still its editor, no lease, a token only it knows.
    const held = await lockRow();
    expect(held).toMatchObject({ status: 'editing', editor: 'alice', leaseExpiresAt: null });
    expect(held.fencingToken?.toString()).not.toBe(lock.token);
    // A token drawn as every grant's is (next_fencing_token, on the database's timeline): it
    // rises past the acquisition's, across a failover too.
    expect(held.fencingToken).toBeGreaterThan(BigInt(lock.token));
    const bob = await execute(signedIn.bob, acquireTableLockMutation, { table: 'suppliers' });
    expect(refusal(bob).code).toBe('LOCK_CONFLICT');
    const renewed = await execute(signedIn.alice, renewTableLockMutation, {
      table: 'suppliers',
      token: lock.token,
    });
    expect(refusal(renewed).code).toBe('LOCK_LOST');

    const shown = await requestAs(signedIn.bob, request.id);
    expect(shown).toMatchObject({ canDecide: true, token: null, comment: 'New trading name' });
    expect(shown.rows).toEqual([
      {
        action: 'update',
        key: { id: '1' },
        version: before.version,
        oldValues: { name: before.name },
        newValues: { name: 'Sakura Trading' },
      },
    ]);
    const queue = await execute(signedIn.bob, changeRequestsQuery, {
      filter: { toDecide: true },
    });
    expect(queue.data?.changeRequestsToDecide).toBe(1);
    const aliceQueue = await execute(signedIn.alice, changeRequestsQuery, { first: 5 });
    expect(aliceQueue.data?.changeRequestsToDecide).toBe(0);
    expect(aliceQueue.data?.changeRequests.requests).toMatchObject([
      { id: request.id, state: 'pending', author: 'alice' },
    ]);

    const approved = await execute(signedIn.bob, approveChangeRequestMutation, {
      id: request.id,
      comment: 'Checked against the contract',
    });
    expect(approved.errors).toBeUndefined();
    expect(approved.data?.approveChangeRequest).toMatchObject({
      state: 'applied',
      decidedBy: 'bob',
    });
    expect((await supplier(1)).name).toBe('Sakura Trading');
    expect(await lockRow()).toMatchObject({ status: 'normal', editor: null });

    const changeSet = await signedIn.database.prisma.changeSet.findUniqueOrThrow({
      where: { id: BigInt(approved.data?.approveChangeRequest.changeSetId ?? '0') },
    });
    expect(changeSet).toMatchObject({
      actor: 'alice',
      approvedBy: 'bob',
      changeRequestId: BigInt(request.id),
      rowsUpdated: 1,
    });
    const events = await signedIn.database.prisma.lockEvent.findMany({
      where: {
        tableName: 'suppliers',
        action: { in: ['request_submitted', 'request_approved', 'save', 'release'] },
      },
      orderBy: { id: 'asc' },
    });
    expect(events.map((event) => [event.action, event.actor])).toEqual([
      ['request_submitted', 'alice'],
      ['save', 'alice'],
      ['request_approved', 'bob'],
      ['release', 'bob'],
    ]);
  });

  it('nobody approves their own request: not in person, not through a key of theirs', async () => {
    const { request } = await submitRename(signedIn.admin, 2, 'Fuji Foods');
    const own = { id: request.id, comment: 'mine' };
    const answers = [
      await execute(signedIn.admin, approveChangeRequestMutation, own),
      await execute(signedIn.admin, rejectChangeRequestMutation, own),
      await execute(signedIn.admin, sendBackChangeRequestMutation, own),
    ];
    expect(answers.map((answer) => refusal(answer).code)).toEqual([
      'FORBIDDEN',
      'FORBIDDEN',
      'FORBIDDEN',
    ]);
    // A key the admin made stands for the admin.
    const key = await signedIn.api.withApiKey('approval-batch', 'admin');
    await signedIn.database.prisma.apiKey.update({
      where: { name: 'approval-batch' },
      data: { createdBy: 'admin' },
    });
    const byKey = await execute(key, approveChangeRequestMutation, { id: request.id });
    expect(refusal(byKey).code).toBe('FORBIDDEN');
    expect((await requestAs(signedIn.admin, request.id)).canDecide).toBe(false);

    // A viewer never approves.
    const viewer = await execute(carol, approveChangeRequestMutation, { id: request.id });
    expect(refusal(viewer).code).toBe('FORBIDDEN');
    expect((await requestAs(signedIn.admin, request.id)).state).toBe('pending');

    // An approver group leaves bob out; alice is in it.
    await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'suppliers',
      policy: { approverRoles: ['admin'] },
    });
    const bob = await execute(signedIn.bob, approveChangeRequestMutation, { id: request.id });
    expect(refusal(bob).code).toBe('FORBIDDEN');
    await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'suppliers',
      policy: { approverRoles: [] },
    });
    const alice = await execute(signedIn.alice, approveChangeRequestMutation, { id: request.id });
    expect(alice.data?.approveChangeRequest.state).toBe('applied');
  });

  it('a key the command line made stands for nobody: it decides no request', async () => {
    const { request } = await submitRename(signedIn.admin, 5, 'Gaia Trading');
    // create-api-key records its keys as made by `cli`: no person answers for them.
    const cliKey = await signedIn.api.withApiKey('cli-batch', 'admin');
    await signedIn.database.prisma.apiKey.update({
      where: { name: 'cli-batch' },
      data: { createdBy: 'cli' },
    });
    const decisions = [
      await execute(cliKey, approveChangeRequestMutation, { id: request.id }),
      await execute(cliKey, rejectChangeRequestMutation, { id: request.id, comment: 'no' }),
      await execute(cliKey, sendBackChangeRequestMutation, { id: request.id, comment: 'no' }),
    ];
    for (const answer of decisions) {
      expect(refusal(answer)).toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringContaining('no person'),
      });
    }
    const toDecide = await execute(cliKey, changeRequestsQuery, { filter: { toDecide: true } });
    expect(toDecide.data).toMatchObject({
      changeRequests: { requests: [] },
      changeRequestsToDecide: 0,
    });
    expect((await requestAs(cliKey, request.id)).canDecide).toBe(false);
    expect((await requestAs(signedIn.admin, request.id)).state).toBe('pending');
    expect((await supplier(5)).name).not.toBe('Gaia Trading');
  });

  it('a key made by another key stands for the person who made that one', async () => {
    const { request } = await submitRename(signedIn.admin, 6, 'Hokkaido Goods');
    const parent = await signedIn.api.withApiKey('admins-batch', 'admin');
    const child = await signedIn.api.withApiKey('batch-child', 'admin');
    await signedIn.database.prisma.apiKey.update({
      where: { name: 'admins-batch' },
      data: { createdBy: 'admin' },
    });
    await signedIn.database.prisma.apiKey.update({
      where: { name: 'batch-child' },
      data: { createdBy: 'key:admins-batch' },
    });
    for (const key of [parent, child]) {
      const answer = await execute(key, approveChangeRequestMutation, { id: request.id });
      expect(refusal(answer).code, key.name ?? '').toBe('FORBIDDEN');
    }
    expect((await requestAs(signedIn.admin, request.id)).state).toBe('pending');
    const bob = await execute(signedIn.bob, approveChangeRequestMutation, { id: request.id });
    expect(bob.data?.approveChangeRequest.state).toBe('applied');
  });

  it('two approvers at once: exactly one applies, the other is refused with a code', async () => {
    for (let round = 0; round < 4; round += 1) {
      const { request } = await submitRename(signedIn.alice, 3, `Aoba ${round}`);
      const answers = await Promise.all(
        [signedIn.bob, signedIn.admin].map((client) =>
          execute(client, approveChangeRequestMutation, { id: request.id }),
        ),
      );
      const applied = answers.filter(
        (answer) => answer.data?.approveChangeRequest.state === 'applied',
      );
      expect(applied).toHaveLength(1);
      expect(answers.map((answer) => answer.errors?.[0]?.extensions?.code).filter(Boolean)).toEqual(
        ['CHANGE_REQUEST_CLOSED'],
      );
      expect((await supplier(3)).name).toBe(`Aoba ${round}`);
      const sets = await signedIn.database.prisma.changeSet.count({
        where: { changeRequestId: BigInt(request.id) },
      });
      expect(sets).toBe(1);
    }
  });

  it('a row changed after submission voids the approval and sends the request back', async () => {
    const { request } = await submitRename(signedIn.alice, 4, 'Nordic Supply');
    await signedIn.database.prisma
      .$executeRaw`UPDATE master.suppliers SET email = 'x@y.example' WHERE id = 4`;

    const approved = await execute(signedIn.bob, approveChangeRequestMutation, { id: request.id });
    expect(refusal(approved).code).toBe('CHANGE_REQUEST_ROWS_CHANGED');
    expect(approved.errors?.[0]?.extensions).toMatchObject({
      rows: [{ action: 'update', key: { id: '4' }, code: 'ROW_CONFLICT' }],
    });
    expect((await supplier(4)).name).not.toBe('Nordic Supply');
    const back = await requestAs(signedIn.alice, request.id);
    expect(back).toMatchObject({
      state: 'sentBack',
      decidedBy: 'bob',
      changedRows: [{ action: 'update', key: { id: '4' }, code: 'ROW_CONFLICT' }],
    });
    // The lock is alice's again, under the token she now reads; she goes on editing.
    expect(back.token).not.toBeNull();
    expect(await lockRow()).toMatchObject({ status: 'editing', editor: 'alice' });
    expect((await lockRow()).leaseExpiresAt).not.toBeNull();
    const renewed = await execute(signedIn.alice, renewTableLockMutation, {
      table: 'suppliers',
      token: back.token ?? '',
    });
    expect(renewed.errors).toBeUndefined();
    expect((await requestAs(signedIn.bob, request.id)).token).toBeNull();
  });

  it("an admin's force release rejects the request with the reason and keeps its diff", async () => {
    const { request } = await submitRename(signedIn.alice, 5, 'Atlas Parts');
    await forceReleaseAs(signedIn.admin, 'suppliers', 'Month-end close');
    const closed = await requestAs(signedIn.bob, request.id);
    expect(closed).toMatchObject({
      state: 'rejected',
      decidedBy: 'admin',
      decisionComment: 'Month-end close',
      canDecide: false,
    });
    expect(closed.rows).toHaveLength(1);
    const late = await execute(signedIn.bob, approveChangeRequestMutation, { id: request.id });
    expect(refusal(late).code).toBe('CHANGE_REQUEST_CLOSED');
    expect(late.errors?.[0]?.extensions).toMatchObject({ state: 'rejected' });
  });

  it('under the idle-holder rule only an admin takes over a lock that waits with a request', async () => {
    const rule = { rule: 'idle_holder', idleMinutes: 1 } as const;
    expect((await execute(signedIn.admin, setTakeOverRuleMutation, rule)).errors).toBeUndefined();
    try {
      const { request } = await submitRename(signedIn.alice, 6, 'Borealis Parts');
      await signedIn.database.prisma.$executeRaw`
        UPDATE tablelock.table_lock SET last_active_at = now() - interval '1 hour'
        WHERE table_name = 'suppliers'`;
      const offered = await execute(signedIn.bob, governedTableQuery, { name: 'suppliers' });
      expect(offered.data?.table?.canTakeOver).toBe(false);
      const bob = await execute(signedIn.bob, takeOverTableLockMutation, {
        table: 'suppliers',
        reason: 'alice is away',
      });
      expect(refusal(bob).code).toBe('FORBIDDEN');
      expect((await requestAs(signedIn.bob, request.id)).state).toBe('pending');

      const admin = await execute(signedIn.admin, takeOverTableLockMutation, {
        table: 'suppliers',
        reason: 'Supplier master is reorganised today',
      });
      expect(admin.errors).toBeUndefined();
      expect(await requestAs(signedIn.alice, request.id)).toMatchObject({
        state: 'rejected',
        decidedBy: 'admin',
        decisionComment: 'Supplier master is reorganised today',
      });
    } finally {
      await execute(signedIn.admin, setTakeOverRuleMutation, { rule: 'own_sessions' });
    }
  });

  it('the author withdraws and goes on editing; reject and send back need a comment', async () => {
    const { request } = await submitRename(signedIn.alice, 6, 'Pioneer Goods');
    const bobWithdraws = await execute(signedIn.bob, withdrawChangeRequestMutation, {
      id: request.id,
    });
    expect(refusal(bobWithdraws).code).toBe('FORBIDDEN');
    const noReason = await execute(signedIn.bob, rejectChangeRequestMutation, {
      id: request.id,
      comment: ' ',
    });
    expect(refusal(noReason).code).toBe('BAD_USER_INPUT');
    const withdrawn = await execute(signedIn.alice, withdrawChangeRequestMutation, {
      id: request.id,
    });
    expect(withdrawn.data?.withdrawChangeRequest.state).toBe('withdrawn');
    const token = withdrawn.data?.withdrawChangeRequest.token ?? '';
    const renewed = await execute(signedIn.alice, renewTableLockMutation, {
      table: 'suppliers',
      token,
    });
    expect(renewed.errors).toBeUndefined();

    const [{ active } = { active: null }] = await signedIn.database.prisma.$queryRaw<
      { active: boolean }[]
    >`SELECT active FROM master.suppliers WHERE id = 6`;
    const again = await execute(signedIn.alice, submitChangeRequestMutation, {
      table: 'suppliers',
      token,
      changes: {
        updates: [
          {
            key: { id: '6' },
            version: (await supplier(6)).version,
            values: { active: String(!active) },
          },
        ],
      },
      comment: null,
    });
    const second = again.data?.submitChangeRequest.request;
    expect(second?.state).toBe('pending');
    const rejected = await execute(signedIn.bob, rejectChangeRequestMutation, {
      id: second?.id ?? '',
      comment: 'Still has open orders',
    });
    expect(rejected.data?.rejectChangeRequest).toMatchObject({
      state: 'rejected',
      decisionComment: 'Still has open orders',
    });
    expect(await lockRow()).toMatchObject({ status: 'normal' });
    const [kept] = await signedIn.database.prisma.$queryRaw<{ active: boolean }[]>`
      SELECT active FROM master.suppliers WHERE id = 6`;
    expect(kept?.active).toBe(active);
  });

  it('a submission that would not save today is refused with its row errors, and keeps the lock', async () => {
    const lock = await acquireTableLockAs(signedIn.alice, 'suppliers');
    const response = await execute(signedIn.alice, submitChangeRequestMutation, {
      table: 'suppliers',
      token: lock.token,
      changes: {
        updates: [
          { key: { id: '7' }, version: (await supplier(7)).version, values: { rating: '9' } },
        ],
      },
    });
    expect(response.data?.submitChangeRequest).toMatchObject({
      submitted: false,
      request: null,
      rowErrors: [{ code: 'CHECK' }],
    });
    expect(await signedIn.database.prisma.changeRequest.count()).toBe(0);
    expect((await lockRow()).fencingToken?.toString()).toBe(lock.token);
  });

  it('approval hands the lock back to an author who asked to keep editing', async () => {
    const { request } = await submitRename(signedIn.alice, 9, 'Kept Editing', true);
    const approved = await execute(signedIn.bob, approveChangeRequestMutation, { id: request.id });
    expect(approved.data?.approveChangeRequest.state).toBe('applied');
    expect((await supplier(9)).name).toBe('Kept Editing');

    // Still alice's, under the request's token (hers to read, nobody else's), with a lease again.
    const held = await lockRow();
    expect(held).toMatchObject({ status: 'editing', editor: 'alice' });
    expect(held.leaseExpiresAt).not.toBeNull();
    const back = await requestAs(signedIn.alice, request.id);
    expect(back).toMatchObject({ state: 'applied' });
    expect(back.token).toBe(held.fencingToken?.toString());
    expect((await requestAs(signedIn.bob, request.id)).token).toBeNull();
    const bob = await execute(signedIn.bob, acquireTableLockMutation, { table: 'suppliers' });
    expect(refusal(bob).code).toBe('LOCK_CONFLICT');
    const renewed = await execute(signedIn.alice, renewTableLockMutation, {
      table: 'suppliers',
      token: back.token ?? '',
    });
    expect(renewed.errors).toBeUndefined();
  });

  it('the legacy UpdateTableStatusWithLock cannot finish a pending request', async () => {
    const { request } = await submitRename(signedIn.alice, 8, 'Sakura Legacy');
    const legacy = await releaseByLegacyMutation(signedIn.alice, 'suppliers');
    expect(legacy).toMatchObject({ lock_result: false, current_status: 'editing' });
    expect((await requestAs(signedIn.bob, request.id)).state).toBe('pending');
    expect(await lockRow()).toMatchObject({ status: 'editing', editor: 'alice' });
  });

  it('counts requests by state in the metrics', async () => {
    const { request } = await submitRename(signedIn.alice, 9, 'Counted Supplier');
    const scrape = async () => {
      const response = await fetch(`${signedIn.api.url}/metrics`);
      expect(response.status).toBe(200);
      const lines = (await response.text()).split('\n');
      const value = (state: string) =>
        lines.find((line) => line.startsWith(`tablelock_change_requests{state="${state}"} `));
      return { pending: value('pending'), applied: value('applied') };
    };
    expect(await scrape()).toEqual({
      pending: 'tablelock_change_requests{state="pending"} 1',
      applied: 'tablelock_change_requests{state="applied"} 0',
    });
    await execute(signedIn.bob, approveChangeRequestMutation, { id: request.id });
    expect(await scrape()).toEqual({
      pending: 'tablelock_change_requests{state="pending"} 0',
      applied: 'tablelock_change_requests{state="applied"} 1',
    });
  });

  it('changeRequestChanged announces each step as it commits', async () => {
    const socket = openLiveSocket({
      url: signedIn.api.url,
      headers: { ...signedIn.bob.headers, origin: signedIn.api.url },
    });
    try {
      const steps = socket.subscribe(
        'subscription { changeRequestChanged(table: "suppliers") { id state decidedBy token } }',
      );
      const probes = socket.subscribe('subscription { lockChanged { actor } }');
      await probeUntil(signedIn.database.prisma, () => probes.messages.some(isProbe));
      const stateOf = (message: (typeof steps.messages)[number]) =>
        'next' in message
          ? (message.next.changeRequestChanged as { state?: string } | undefined)?.state
          : undefined;

      const { request } = await submitRename(signedIn.alice, 10, 'Live Supplier');
      await steps.waitFor((message) => stateOf(message) === 'pending');
      await execute(signedIn.bob, sendBackChangeRequestMutation, {
        id: request.id,
        comment: 'Spell it as in the contract',
      });
      const back = await steps.waitFor((message) => stateOf(message) === 'sentBack');
      // Bob is not its author: the token that hands the lock back is not his to read.
      expect(back).toEqual({
        next: {
          changeRequestChanged: {
            id: request.id,
            state: 'sentBack',
            decidedBy: 'bob',
            token: null,
          },
        },
      });
    } finally {
      await socket.dispose();
    }
  });

  it('neither the lease sweeper nor the idle limit ends a lock that waits with a request', async () => {
    const { request } = await submitRename(signedIn.alice, 11, 'Waiting Supplier');
    // Two days without a sign of alice, far past any idle limit.
    await signedIn.database.prisma.$executeRaw`
      UPDATE tablelock.table_lock
      SET acquired_at = now() - interval '2 days', last_active_at = now() - interval '2 days'
      WHERE table_name = 'suppliers'`;
    expect(await expireLeases(signedIn.database.prisma)).not.toContain('suppliers');
    expect(await lockRow()).toMatchObject({ status: 'editing', editor: 'alice' });
    expect((await requestAs(signedIn.bob, request.id)).state).toBe('pending');
  });
});
