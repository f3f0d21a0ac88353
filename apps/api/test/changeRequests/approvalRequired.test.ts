import { syncWriteGuards } from '@tablelock/master-data';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../generated';
import { setTablePolicyMutation } from '../support/governanceOperations';
import {
  acquireTableLockAs,
  refusal,
  releaseTableLockAs,
  saveRowsMutation,
} from '../support/lockOperations';
import { useSignedInApi } from '../support/signedInApi';
import { execute } from '../support/testApi';
import {
  approveChangeRequestMutation,
  changeRequestCheckQuery,
  changeRequestQuery,
  submitChangeRequestMutation,
} from './support/changeRequestOperations';

const signedIn = useSignedInApi();

const importRowsMutation = graphql(`
  mutation ApprovalImportRows($table: String!, $token: String!, $content: String!, $dryRun: Boolean) {
    importRows(
      table: $table
      token: $token
      fileName: "regions.csv"
      format: CSV
      contentBase64: $content
      dryRun: $dryRun
    ) {
      id
      applied
    }
  }
`);

const applyImportMutation = graphql(`
  mutation ApprovalApplyImport($id: ID!, $token: String!) {
    applyImport(id: $id, token: $token) {
      applied
    }
  }
`);

const revertMutation = graphql(`
  mutation ApprovalRevert($table: String!, $changeId: ID!, $token: String!) {
    revertChange(table: $table, changeId: $changeId, token: $token) {
      reverted
    }
  }
`);

async function regionName(id: number): Promise<string | undefined> {
  const [row] = await signedIn.database.prisma.$queryRaw<{ name: string }[]>`
    SELECT name FROM master.regions WHERE id = ${id}`;
  return row?.name;
}

async function versionOf(id: number): Promise<string> {
  const [row] = await signedIn.database.prisma.$queryRaw<{ version: string }[]>`
    SELECT xmin::text AS version FROM master.regions WHERE id = ${id}`;
  return row?.version ?? '';
}

beforeAll(async () => {
  await syncWriteGuards(signedIn.database.prisma, MASTER_SCHEMA, 'RECORD');
});

describe('APPROVAL_REQUIRED', () => {
  it('saveRows, an import and a revert are refused on a table that needs approval', async () => {
    // A change to revert later, saved before the table needed approval.
    const before = await acquireTableLockAs(signedIn.alice, 'regions');
    const saved = await execute(signedIn.alice, saveRowsMutation, {
      table: 'regions',
      token: before.token,
      changes: {
        updates: [
          { key: { id: '10' }, version: await versionOf(10), values: { name: 'Kanto east' } },
        ],
      },
    });
    expect(saved.data?.saveRows.saved).toBe(true);
    await releaseTableLockAs(signedIn.alice, 'regions', before.token);
    const [change] = await signedIn.database.prisma.changeSet.findMany({
      where: { tableName: 'regions' },
      orderBy: { id: 'desc' },
      take: 1,
    });

    const policy = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'regions',
      policy: { changesNeedApproval: true },
    });
    expect(policy.errors).toBeUndefined();
    const lock = await acquireTableLockAs(signedIn.alice, 'regions');

    const save = await execute(signedIn.alice, saveRowsMutation, {
      table: 'regions',
      token: lock.token,
      changes: {
        updates: [{ key: { id: '10' }, version: await versionOf(10), values: { name: 'Kanto' } }],
      },
    });
    expect(refusal(save).code).toBe('APPROVAL_REQUIRED');

    const csv = Buffer.from('id,name\n10,Kanto north\n').toString('base64');
    const direct = await execute(signedIn.alice, importRowsMutation, {
      table: 'regions',
      token: lock.token,
      content: csv,
      dryRun: false,
    });
    expect(refusal(direct).code).toBe('APPROVAL_REQUIRED');
    const dryRun = await execute(signedIn.alice, importRowsMutation, {
      table: 'regions',
      token: lock.token,
      content: csv,
      dryRun: true,
    });
    expect(dryRun.errors).toBeUndefined();
    const applied = await execute(signedIn.alice, applyImportMutation, {
      id: dryRun.data?.importRows.id ?? '',
      token: lock.token,
    });
    expect(refusal(applied).code).toBe('APPROVAL_REQUIRED');

    const reverted = await execute(signedIn.alice, revertMutation, {
      table: 'regions',
      changeId: String(change?.id),
      token: lock.token,
    });
    expect(refusal(reverted).code).toBe('APPROVAL_REQUIRED');

    expect(await regionName(10)).toBe('Kanto east');
  });

  it('under ENFORCE, direct SQL with the lock is refused too (TL004)', async () => {
    const policy = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'warehouses',
      policy: { changesNeedApproval: true, writeGuard: 'ENFORCE' },
    });
    expect(policy.errors).toBeUndefined();
    const lock = await acquireTableLockAs(signedIn.alice, 'warehouses');
    const script = signedIn.database.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT tablelock.use_lock('warehouses', ${lock.token})`;
      await tx.$executeRaw`UPDATE master.warehouses SET name = 'Moved' WHERE id = 1`;
    });
    await expect(script).rejects.toMatchObject({ message: expect.stringContaining('TL004') });
    const [row] = await signedIn.database.prisma.$queryRaw<{ name: string }[]>`
      SELECT name FROM master.warehouses WHERE id = 1`;
    expect(row?.name).not.toBe('Moved');
  });

  it("an import's dry run goes for approval, and approval applies it as an import", async () => {
    await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'regions',
      policy: { changesNeedApproval: true },
    });
    const lock = await acquireTableLockAs(signedIn.alice, 'regions');
    const csv = Buffer.from(
      'id,code,name\n11,JP-KANSAI,Kansai west\n99,JP-OKINAWA,Okinawa\n',
    ).toString('base64');
    const dryRun = await execute(signedIn.alice, importRowsMutation, {
      table: 'regions',
      token: lock.token,
      content: csv,
      dryRun: true,
    });
    const dryRunId = dryRun.data?.importRows.id ?? '';
    const submitted = await execute(signedIn.alice, submitChangeRequestMutation, {
      table: 'regions',
      token: lock.token,
      importDryRunId: dryRunId,
      comment: 'Regions file',
    });
    expect(submitted.errors).toBeUndefined();
    const id = submitted.data?.submitChangeRequest.request?.id ?? '';
    expect(submitted.data?.submitChangeRequest.request).toMatchObject({
      state: 'pending',
      rowCount: 2,
    });
    expect(await regionName(99)).toBeUndefined();
    const shown = await execute(signedIn.bob, changeRequestQuery, { id });
    expect(shown.data?.changeRequest?.rows).toEqual([
      {
        action: 'update',
        key: { id: '11' },
        version: expect.any(String),
        oldValues: { name: await regionName(11) },
        newValues: { name: 'Kansai west' },
      },
      {
        action: 'insert',
        key: { id: '99' },
        version: null,
        oldValues: null,
        newValues: { id: '99', code: 'JP-OKINAWA', name: 'Okinawa' },
      },
    ]);

    // Its check tries the file's rows as approval will: both still apply.
    const checked = await execute(signedIn.bob, changeRequestCheckQuery, { id });
    expect(checked.data?.changeRequest?.check).toEqual({
      applies: true,
      rowsChecked: 2,
      problems: [],
    });

    const approved = await execute(signedIn.bob, approveChangeRequestMutation, { id });
    expect(approved.data?.approveChangeRequest.state).toBe('applied');
    expect(await regionName(11)).toBe('Kansai west');
    expect(await regionName(99)).toBe('Okinawa');
    const changeSet = await signedIn.database.prisma.changeSet.findUniqueOrThrow({
      where: { id: BigInt(approved.data?.approveChangeRequest.changeSetId ?? '0') },
    });
    expect(changeSet).toMatchObject({ kind: 'import', actor: 'alice', approvedBy: 'bob' });
  });
});
