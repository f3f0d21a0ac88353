import { acquireTableLock, grantedOrConflict, releaseTableLock } from '@tablelock/lock';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  applyScheduledRequest,
  decideChangeRequest,
  dryRunImport,
  MasterDataError,
  moveChangeRequest,
  readChangeRequests,
  readRequestByToken,
  saveRows,
  scheduleEditor,
  submitChangeRequest,
} from '../../src';
import { TABLE, TARGET, useGuardTestbed } from '../guard/guardTestbed';

// Issue 44: a change request with an effective time waits for it without the table's lock, and
// the scheduler applies it then, once, or fails it with the reasons.
const bed = useGuardTestbed();

const bob = {
  name: 'bob',
  role: 'editor',
  groups: [],
  standsFor: [],
  standsForNobody: false,
} as const;
const alice = { ...bob, name: 'alice' } as const;

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000);

async function versionOf(id: number): Promise<string> {
  const [row] = await bed.database.prisma.$queryRawUnsafe<{ version: string }[]>(
    `SELECT xmin::text AS version FROM ${TARGET} WHERE id = $1`,
    id,
  );
  return row?.version ?? '';
}

async function priceOf(id: number): Promise<string | null> {
  const [row] = await bed.database.prisma.$queryRawUnsafe<{ price: string | null }[]>(
    `SELECT price::text AS price FROM ${TARGET} WHERE id = $1`,
    id,
  );
  return row?.price ?? null;
}

/** alice schedules bolt's price for `effectiveAt`; the request. */
async function schedulePrice(
  price: string,
  effectiveAt: Date,
  keepEditing = false,
  held: string | null = null,
) {
  const token = held ?? (await bed.lock(TABLE, 'alice'));
  const submitted = await submitChangeRequest(bed.database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: TABLE,
    author: 'alice',
    token,
    changes: { updates: [{ key: { id: '1' }, version: await versionOf(1), values: { price } }] },
    importDryRunId: null,
    comment: null,
    keepEditing,
    submittedBy: 'alice',
    submitters: [],
    effectiveAt,
  });
  if (!submitted.request) throw new Error(JSON.stringify(submitted.rowErrors));
  return { request: submitted.request, token };
}

/** Makes the request due now, as the clock would: its time moved into the past in the database. */
async function makeDue(id: string) {
  await bed.database.prisma.$executeRaw`
    UPDATE tablelock.change_request SET effective_at = now() - interval '2 seconds'
    WHERE id = ${id}::bigint`;
}

/** The scheduler's way to the table, without a line: take it now or not at all. */
const takeAtOnce = async (tableName: string, editor: string) =>
  grantedOrConflict(
    await acquireTableLock(bed.database.prisma, { tableName, editor, leaseSeconds: 600 }),
  ).fencingToken;

const run = (id: string) =>
  applyScheduledRequest(bed.database.prisma, {
    schema: MASTER_SCHEMA,
    id,
    claimant: 'test',
    takeTable: takeAtOnce,
  });

async function changeSets() {
  return bed.database.prisma.changeSet.findMany({ where: { tableName: TABLE } });
}

async function expectBadInput(
  work: Promise<unknown>,
  message: RegExp,
  details: Record<string, unknown> = {},
) {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MasterDataError);
  expect(error).toMatchObject({ code: 'BAD_USER_INPUT', details });
  expect((error as Error).message).toMatch(message);
}

describe('a scheduled change request', () => {
  beforeEach(async () => {
    await bed.guard(TABLE, 'ENFORCE');
  });

  it("releases its author's lock at submission: another editor locks and saves meanwhile", async () => {
    const { request } = await schedulePrice('2.00', inSeconds(3600));
    expect(request.state).toBe('scheduled');
    const token = await bed.lock(TABLE, 'bob');
    const table = { schema: MASTER_SCHEMA, tableName: TABLE };
    const saved = await saveRows(bed.database.prisma, {
      ...table,
      holder: 'bob',
      token,
      changes: {
        updates: [{ key: { id: '2' }, version: await versionOf(2), values: { price: '0.30' } }],
      },
    });
    expect(saved.saved).toBe(true);
    expect(await priceOf(2)).toBe('0.30');
    expect(await priceOf(1)).toBe('1.50');
  });

  it('is what the scheduled filter lists: a request that applies at approval is left out', async () => {
    const { request: scheduled } = await schedulePrice('2.00', inSeconds(3600));
    const token = await bed.lock(TABLE, 'alice');
    const atApproval = await submitChangeRequest(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: TABLE,
      author: 'alice',
      token,
      changes: {
        updates: [{ key: { id: '2' }, version: await versionOf(2), values: { price: '0.40' } }],
      },
      importDryRunId: null,
      comment: null,
      keepEditing: false,
      submittedBy: 'alice',
      submitters: [],
    });
    const ids = async (scheduledOnly: boolean) =>
      (
        await readChangeRequests(bed.database.prisma, {
          filter: { tableName: TABLE, scheduled: scheduledOnly },
          after: null,
          first: 100,
        })
      ).requests.map((request) => request.id);
    expect(await ids(false)).toEqual(
      expect.arrayContaining([scheduled.id, atApproval.request?.id]),
    );
    const listed = await ids(true);
    expect(listed).toContain(scheduled.id);
    expect(listed).not.toContain(atApproval.request?.id);
  });

  it('keeps the lock with its author when asked', async () => {
    const { token } = await schedulePrice('2.00', inSeconds(3600), true);
    const other = await acquireTableLock(bed.database.prisma, {
      tableName: TABLE,
      editor: 'bob',
      leaseSeconds: 600,
    });
    expect('refused' in other).toBe(true);
    await releaseTableLock(bed.database.prisma, { tableName: TABLE, editor: 'alice', token });
  });

  it('is applied at its time, once, as kind scheduled naming the request', async () => {
    const { request } = await schedulePrice('2.00', inSeconds(3600));
    expect(await run(request.id)).toBeNull();
    expect(await priceOf(1)).toBe('1.50');
    await makeDue(request.id);
    const applied = await run(request.id);
    expect(applied).toMatchObject({ state: 'applied' });
    expect(applied?.lateBySeconds).toBeGreaterThanOrEqual(2);
    expect(await priceOf(1)).toBe('2.00');
    expect(await run(request.id)).toBeNull();
    expect(await changeSets()).toMatchObject([
      { kind: 'scheduled', changeRequestId: BigInt(request.id), rowsUpdated: 1 },
    ]);
    // The scheduler's lock ended with the transaction that applied it.
    expect(await bed.lock(TABLE, 'bob')).toMatch(/^\d+$/);
  });

  it('is applied by the run after one that took its table and was cut off before releasing it (a failover)', async () => {
    const { request } = await schedulePrice('2.00', inSeconds(3600));
    await makeDue(request.id);
    // What such a run leaves: the table held by the request's own editor, its release lost.
    await takeAtOnce(TABLE, scheduleEditor(request.id));
    const applied = await run(request.id);
    expect({ state: applied?.state, failure: applied?.failure }).toEqual({
      state: 'applied',
      failure: null,
    });
    expect(await priceOf(1)).toBe('2.00');
    expect(await bed.lock(TABLE, 'bob')).toMatch(/^\d+$/);
  });

  it("of an import's dry run applies the file's rows at its time, not before", async () => {
    const token = await bed.lock(TABLE, 'alice');
    const dryRun = await dryRunImport(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: TABLE,
      holder: 'alice',
      token,
      fileName: 'items.csv',
      format: 'csv',
      content: Buffer.from('id,name,price\n1,bolt,2.25\n3,washer,0.05\n'),
    });
    const submitted = await submitChangeRequest(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: TABLE,
      author: 'alice',
      token,
      changes: null,
      importDryRunId: dryRun.id,
      comment: null,
      keepEditing: false,
      submittedBy: 'alice',
      submitters: [],
      effectiveAt: inSeconds(3600),
    });
    expect(submitted.request).toMatchObject({
      state: 'scheduled',
      rowCount: 2,
      importDryRunId: dryRun.id,
    });
    const id = submitted.request?.id ?? '';
    // Its author's lock was released: bob edits meanwhile, another row.
    const bobs = await bed.lock(TABLE, 'bob');
    await releaseTableLock(bed.database.prisma, { tableName: TABLE, editor: 'bob', token: bobs });
    expect(await run(id)).toBeNull();
    expect(await priceOf(1)).toBe('1.50');
    expect(await priceOf(3)).toBeNull();
    await makeDue(id);
    expect(await run(id)).toMatchObject({ state: 'applied' });
    expect(await priceOf(1)).toBe('2.25');
    expect(await priceOf(3)).toBe('0.05');
    expect(await changeSets()).toMatchObject([
      { kind: 'scheduled', changeRequestId: BigInt(id), rowsInserted: 1, rowsUpdated: 1 },
    ]);
  });

  it('fails, naming the row, when the row changed since: nothing is written', async () => {
    const { request } = await schedulePrice('2.00', inSeconds(3600));
    const token = await bed.lock(TABLE, 'bob');
    await saveRows(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: TABLE,
      holder: 'bob',
      token,
      changes: {
        updates: [{ key: { id: '1' }, version: await versionOf(1), values: { price: '3.00' } }],
      },
    });
    await releaseTableLock(bed.database.prisma, { tableName: TABLE, editor: 'bob', token });
    await makeDue(request.id);
    const failed = await run(request.id);
    expect(failed).toMatchObject({
      state: 'failed',
      failure: { reason: 'ROWS_CHANGED', rows: [{ key: { id: '1' }, code: 'ROW_CHANGED' }] },
    });
    expect(await priceOf(1)).toBe('3.00');
    expect((await changeSets()).filter((set) => set.kind === 'scheduled')).toEqual([]);
    // Its step reaches its author live: changeRequestChanged finds a request by its event's token.
    const event = await bed.database.prisma.lockEvent.findFirstOrThrow({
      where: { action: 'request_failed', tableName: TABLE },
      orderBy: { id: 'desc' },
    });
    const told = await readRequestByToken(bed.database.prisma, TABLE, String(event.token));
    expect(told?.id).toBe(request.id);
  });

  it('on a table that needs approval is pending, and its approval schedules it, never applies it early', async () => {
    await bed.database.prisma.tablePolicy.update({
      where: { tableName: TABLE },
      data: { changesNeedApproval: true },
    });
    const { request } = await schedulePrice('2.00', inSeconds(3600));
    expect(request.state).toBe('pending');
    // Waiting for approval, it holds no lock either.
    const bobs = await bed.lock(TABLE, 'bob');
    await releaseTableLock(bed.database.prisma, { tableName: TABLE, editor: 'bob', token: bobs });
    const approved = await decideChangeRequest(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      id: request.id,
      decision: 'approve',
      actor: bob,
      comment: null,
    });
    expect(approved.state).toBe('scheduled');
    expect(await priceOf(1)).toBe('1.50');
    await makeDue(request.id);
    expect(await run(request.id)).toMatchObject({ state: 'applied' });
    expect(await priceOf(1)).toBe('2.00');
    expect(await changeSets()).toMatchObject([
      { kind: 'scheduled', approvedBy: 'bob', changeRequestId: BigInt(request.id) },
    ]);
  });

  it('waiting for approval, outlives the lease-free lock it was made under', async () => {
    await bed.database.prisma.tablePolicy.update({
      where: { tableName: TABLE },
      data: { changesNeedApproval: true },
    });
    const token = grantedOrConflict(
      await acquireTableLock(bed.database.prisma, {
        tableName: TABLE,
        editor: 'alice',
        leaseSeconds: null,
      }),
    ).fencingToken;
    const { request } = await schedulePrice('2.00', inSeconds(3600), false, token);
    const stored = await bed.database.prisma.changeRequest.findUniqueOrThrow({
      where: { id: BigInt(request.id) },
    });
    expect(stored.state).toBe('pending');
  });

  it('may be moved and withdrawn by its author until its time, rejected by an approver', async () => {
    const { request } = await schedulePrice('2.00', inSeconds(3600));
    const later = inSeconds(7200);
    const moved = await moveChangeRequest(bed.database.prisma, {
      id: request.id,
      effectiveAt: later,
      actor: alice,
    });
    expect(moved.effectiveAt?.getTime()).toBe(later.getTime());
    const withdrawn = await decideChangeRequest(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      id: request.id,
      decision: 'withdraw',
      actor: alice,
      comment: null,
    });
    expect(withdrawn.state).toBe('withdrawn');
    const second = await schedulePrice('2.50', inSeconds(3600));
    const rejected = await decideChangeRequest(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      id: second.request.id,
      decision: 'reject',
      actor: bob,
      comment: 'not this year',
    });
    expect(rejected.state).toBe('rejected');
    await makeDue(second.request.id);
    expect(await run(second.request.id)).toBeNull();
    expect(await priceOf(1)).toBe('1.50');
  });

  it('refuses a time in the past or more than five years ahead, and a move of an applied request', async () => {
    const before = await bed.database.prisma.changeRequest.count();
    const token = await bed.lock(TABLE, 'alice');
    await expectBadInput(schedulePrice('2.00', inSeconds(-60), false, token), /in the past/, {
      effectiveAt: 'past',
    });
    const tooLate = inSeconds(6 * 366 * 24 * 3600);
    await expectBadInput(schedulePrice('2.00', tooLate, false, token), /five years/, {
      effectiveAt: 'tooFar',
    });
    expect(await bed.database.prisma.changeRequest.count()).toBe(before);
    const { request } = await schedulePrice('2.00', inSeconds(3600), false, token);
    await expectBadInput(
      moveChangeRequest(bed.database.prisma, {
        id: request.id,
        effectiveAt: inSeconds(-5),
        actor: alice,
      }),
      /in the past/,
    );
    await makeDue(request.id);
    await run(request.id);
    await expectBadInput(
      moveChangeRequest(bed.database.prisma, {
        id: request.id,
        effectiveAt: inSeconds(60),
        actor: alice,
      }),
      /applied/,
    );
    expect(await priceOf(1)).toBe('2.00');
  });

  it("is refused on a table its author does not hold: another editor's token submits nothing", async () => {
    const before = await bed.database.prisma.changeRequest.count();
    const alices = await bed.lock(TABLE, 'alice');
    const error = await submitChangeRequest(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: TABLE,
      author: 'bob',
      token: alices,
      changes: {
        updates: [{ key: { id: '1' }, version: await versionOf(1), values: { price: '9' } }],
      },
      importDryRunId: null,
      comment: null,
      keepEditing: false,
      submittedBy: 'bob',
      submitters: [],
      effectiveAt: inSeconds(3600),
    }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'LOCK_LOST' });
    expect(await bed.database.prisma.changeRequest.count()).toBe(before);
    await releaseTableLock(bed.database.prisma, {
      tableName: TABLE,
      editor: 'alice',
      token: alices,
    });
  });
});
