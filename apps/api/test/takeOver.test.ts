import { describe, expect, it } from 'vitest';
import { subscribeLockChanges } from './support/lockChanges';
import {
  acquireTableLockAs,
  granted,
  refusal,
  saveRowsMutation,
  takeOverTableLockMutation,
} from './support/lockOperations';
import { rowCount } from './support/masterRows';
import { readRegistry } from './support/registry';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

describe('take-over', () => {
  it('an admin takes over in one step: the FK locks stay, the old token is LOCK_LOST', async () => {
    // The holder it displaces hears of it, with the new token: a viewer would read none.
    const changes = await subscribeLockChanges({
      url: signedIn.api.url,
      headers: signedIn.alice.headers,
      table: 'suppliers',
      prisma: signedIn.database.prisma,
    });
    try {
      const first = await acquireTableLockAs(signedIn.alice, 'suppliers');
      expect(first.lockedTables).toEqual(['currencies', 'regions']);

      const samples: Awaited<ReturnType<typeof readRegistry>>[] = [];
      let taking = true;
      const sampler = (async () => {
        while (taking) samples.push(await readRegistry(signedIn.database.prisma));
      })();
      const response = await execute(signedIn.admin, takeOverTableLockMutation, {
        table: 'suppliers',
        reason: 'alice is on leave',
      }).finally(() => {
        taking = false;
      });
      await sampler;
      samples.push(await readRegistry(signedIn.database.prisma));
      const taken = granted(response, 'takeOverTableLock', 'admin taking over suppliers');
      expect(taken).toMatchObject({ editor: 'admin', lockedTables: ['currencies', 'regions'] });
      expect(BigInt(taken.token)).toBeGreaterThan(BigInt(first.token));
      for (const registry of samples) {
        expect(registry.get('suppliers')?.status).toBe('editing');
        for (const target of ['currencies', 'regions']) {
          expect(registry.get(target)).toMatchObject({ status: 'locked', lockedBy: ['suppliers'] });
        }
      }
      expect(samples.at(-1)?.get('suppliers')?.editor).toBe('admin');

      const lost = await execute(signedIn.alice, saveRowsMutation, {
        table: 'suppliers',
        token: first.token,
        changes: {
          inserts: [
            {
              values: {
                id: '9001',
                name: 'Too late',
                region_id: '10',
                currency_code: 'JPY',
                contract_start: '2026-01-01',
              },
            },
          ],
        },
      });
      expect(refusal(lost).code).toBe('LOCK_LOST');
      expect(refusal(lost).message).toContain('admin took over suppliers');
      expect(refusal(lost).message).toContain('alice is on leave');
      expect(await rowCount(signedIn.database.prisma, 'suppliers', '9001')).toBe(0);

      const announced = await changes.waitFor((change) => change.action === 'take_over');
      expect(announced).toMatchObject({
        table: 'suppliers',
        actor: 'admin',
        editor: 'admin',
        token: taken.token,
        reason: 'alice is on leave',
        previousEditor: 'alice',
      });
      const [recorded] = await signedIn.database.prisma.$queryRaw<
        { details: { previousEditor: string } }[]
      >`
        SELECT details FROM tablelock.lock_event WHERE id = ${announced.id}::bigint`;
      expect(recorded?.details.previousEditor).toBe('alice');
    } finally {
      await changes.close();
    }
  });

  it('a user cannot take over anyone else’s lock, but can take over their own from another session', async () => {
    const first = await acquireTableLockAs(signedIn.alice, 'suppliers');
    const refused = refusal(
      await execute(signedIn.bob, takeOverTableLockMutation, {
        table: 'suppliers',
        reason: 'I need it',
      }),
    );
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toContain('alice');
    const untouched = await signedIn.database.prisma.tableLock.findUniqueOrThrow({
      where: { tableName: 'suppliers' },
    });
    expect(untouched).toMatchObject({ status: 'editing', editor: 'alice' });
    expect(untouched.fencingToken?.toString()).toBe(first.token);

    const aliceOnLaptop = await signedIn.api.loginAs('alice');
    const moved = granted(
      await execute(aliceOnLaptop, takeOverTableLockMutation, {
        table: 'suppliers',
        reason: 'moved to my laptop',
      }),
      'takeOverTableLock',
      'alice taking over her own lock',
    );
    expect(moved.editor).toBe('alice');
    expect(BigInt(moved.token)).toBeGreaterThan(BigInt(first.token));

    const supplier = (id: string) => ({
      inserts: [
        {
          values: {
            id,
            name: `Supplier ${id}`,
            region_id: '10',
            currency_code: 'JPY',
            contract_start: '2026-01-01',
          },
        },
      ],
    });
    const stale = refusal(
      await execute(signedIn.alice, saveRowsMutation, {
        table: 'suppliers',
        token: first.token,
        changes: supplier('9002'),
      }),
    );
    expect(stale.code).toBe('LOCK_LOST');
    expect(stale.message).toContain('alice took over suppliers');
    expect(stale.message).toContain('moved to my laptop');
    expect(await rowCount(signedIn.database.prisma, 'suppliers', '9002')).toBe(0);

    const saved = await execute(aliceOnLaptop, saveRowsMutation, {
      table: 'suppliers',
      token: moved.token,
      changes: supplier('9003'),
    });
    expect(saved.data?.saveRows.saved).toBe(true);
    expect(await rowCount(signedIn.database.prisma, 'suppliers', '9003')).toBe(1);
  });
});
