import { syncWriteGuards } from '@tablelock/master-data';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { subscribeLockChanges } from './support/lockChanges';
import { lockEvents } from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';

const signedIn = useSignedInApi();

describe('an unlocked write under RECORD', () => {
  beforeAll(() => syncWriteGuards(signedIn.database.prisma, MASTER_SCHEMA, 'RECORD'));

  it('is announced live to admins and listed in the lock history', async () => {
    const changes = await subscribeLockChanges({
      url: signedIn.api.url,
      headers: signedIn.admin.headers,
      prisma: signedIn.database.prisma,
    });
    try {
      await signedIn.database.prisma
        .$executeRaw`UPDATE master.warehouses SET name = name || ' ' WHERE id IN (1, 2)`;
      const announced = await changes.waitFor((change) => change.action === 'unlocked_write');
      expect(announced).toMatchObject({ table: 'warehouses', rowsChanged: 2 });
      const { events } = await lockEvents(signedIn.admin, { table: 'warehouses' }, 0, 1);
      expect(events[0]).toMatchObject({ action: 'unlocked_write', rowsChanged: 2 });
    } finally {
      await changes.close();
    }
  });
});
