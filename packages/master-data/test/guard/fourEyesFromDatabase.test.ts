import { MASTER_SCHEMA } from '@tablelock/test-support';
import type pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { decideChangeRequest, submitChangeRequest } from '../../src';
import { TABLE, TARGET, useGuardTestbed } from './guardTestbed';
import { refusal } from './otherWriter';

// Issue 40: four eyes held only where tablelock's own code asked use_lock. Another database
// login that knew a token set `tablelock.tokens` itself, or showed a pending request's token to
// use_lock, and wrote a table that needs approval in the holder's name.
const bed = useGuardTestbed();

const bob = {
  name: 'bob',
  role: 'editor',
  groups: [],
  standsFor: [],
  standsForNobody: false,
} as const;

async function needApproval(changesNeedApproval: boolean): Promise<void> {
  await bed.database.prisma.tablePolicy.update({
    where: { tableName: TABLE },
    data: { changesNeedApproval },
  });
}

async function priceOf(id: number): Promise<string | null> {
  const [row] = await bed.database.prisma.$queryRawUnsafe<{ price: string | null }[]>(
    `SELECT price::text AS price FROM ${TARGET} WHERE id = $1`,
    id,
  );
  return row?.price ?? null;
}

/** alice's change of bolt's price, submitted for approval: the request and its token. */
async function submitPrice(price: string): Promise<{ id: string; token: string }> {
  const token = await bed.lock(TABLE, 'alice');
  const [row] = await bed.database.prisma.$queryRawUnsafe<{ version: string }[]>(
    `SELECT xmin::text AS version FROM ${TARGET} WHERE id = 1`,
  );
  const submitted = await submitChangeRequest(bed.database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: TABLE,
    author: 'alice',
    token,
    changes: { updates: [{ key: { id: '1' }, version: row?.version ?? '', values: { price } }] },
    importDryRunId: null,
    comment: null,
    keepEditing: false,
    submittedBy: 'alice',
    submitters: [],
  });
  if (!submitted.request) throw new Error(JSON.stringify(submitted.rowErrors));
  return { id: submitted.request.id, token: submitted.request.token };
}

/** Sets the tokens setting as use_lock would, without calling it: any session may. */
function forgeTokens(client: pg.Client, token: string) {
  return client.query("SELECT set_config('tablelock.tokens', $1, true)", [
    JSON.stringify({ [TABLE]: token }),
  ]);
}

async function changeSets() {
  return bed.database.prisma.changeSet.findMany({ where: { tableName: TABLE } });
}

describe('four eyes from the database (ENFORCE)', () => {
  beforeEach(async () => {
    await bed.guard(TABLE, 'ENFORCE');
    await needApproval(true);
  });

  it("refuses a write under the holder's token set without use_lock", async () => {
    const token = await bed.lock(TABLE, 'alice');
    const client = await bed.connect();
    await client.query('BEGIN');
    await forgeTokens(client, token);
    const refused = await refusal(() => client.query(`UPDATE ${TARGET} SET price = 9`));
    expect(refused.code).toBe('TL004');
    expect(refused.message).toContain(`changes to ${TABLE} need another person's approval`);
    await client.query('ROLLBACK');
    expect(await priceOf(1)).toBe('1.50');
    expect(await changeSets()).toEqual([]);
  });

  it("refuses a write under a pending request's token set without use_lock", async () => {
    const request = await submitPrice('2.00');
    const client = await bed.connect();
    await client.query('BEGIN');
    await forgeTokens(client, request.token);
    const refused = await refusal(() => client.query(`UPDATE ${TARGET} SET price = 9`));
    expect(refused.code).toBe('TL004');
    await client.query('ROLLBACK');
    expect(await priceOf(1)).toBe('1.50');
    expect(await changeSets()).toEqual([]);
  });

  it("use_lock refuses a pending request's token", async () => {
    const request = await submitPrice('2.00');
    const client = await bed.connect();
    await client.query('BEGIN');
    const refused = await refusal(() =>
      client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, request.token]),
    );
    expect(refused.code).toBe('TL004');
    expect(refused.message).toContain(`waits with change request ${request.id}`);
  });

  it('no other login may mark its write as an approved request', async () => {
    const request = await submitPrice('2.00');
    const client = await bed.connect();
    await client.query('BEGIN');
    const refused = await refusal(() =>
      client.query("SELECT tablelock.write_change_request($1, 'bob')", [request.id]),
    );
    expect(refused.code).toBe('42501');
  });

  it("tablelock's approval writes the request, naming author and approver", async () => {
    const request = await submitPrice('2.00');
    const decided = await decideChangeRequest(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      id: request.id,
      decision: 'approve',
      actor: bob,
      comment: null,
    });
    expect(decided.state).toBe('applied');
    expect(await priceOf(1)).toBe('2.00');
    expect(await changeSets()).toMatchObject([
      {
        kind: 'save',
        actor: 'alice',
        token: BigInt(request.token),
        approvedBy: 'bob',
        changeRequestId: BigInt(request.id),
        rowsUpdated: 1,
      },
    ]);
  });
});

describe('four eyes from the database (RECORD)', () => {
  beforeEach(async () => {
    await bed.guard(TABLE, 'RECORD');
    await needApproval(true);
  });

  it("keeps a write under a forged token as an unlocked write, never as the holder's", async () => {
    const token = await bed.lock(TABLE, 'alice');
    const client = await bed.connect();
    await client.query('BEGIN');
    await forgeTokens(client, token);
    await client.query(`UPDATE ${TARGET} SET price = 9 WHERE id = 1`);
    await client.query('COMMIT');
    expect(await changeSets()).toMatchObject([
      { kind: 'unlocked_write', actor: null, token: null, approvedBy: null, rowsUpdated: 1 },
    ]);
  });
});

describe('a pending request on a table that no longer needs approval', () => {
  beforeEach(() => bed.guard(TABLE, 'ENFORCE'));

  it('its token opens neither use_lock nor the trigger', async () => {
    await needApproval(true);
    const request = await submitPrice('2.00');
    await needApproval(false);
    const client = await bed.connect();
    await client.query('BEGIN');
    const byUseLock = await refusal(() =>
      client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, request.token]),
    );
    expect(byUseLock.code).toBe('TL004');
    await client.query('ROLLBACK');
    await client.query('BEGIN');
    await forgeTokens(client, request.token);
    const byTrigger = await refusal(() => client.query(`UPDATE ${TARGET} SET price = 9`));
    expect(byTrigger.code).toBe('TL004');
    await client.query('ROLLBACK');
    expect(await priceOf(1)).toBe('1.50');
  });
});
