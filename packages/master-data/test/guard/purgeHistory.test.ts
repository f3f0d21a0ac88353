import { describe, expect, it } from 'vitest';
import { purgeHistory } from '../../src';
import { TABLE, TARGET, useGuardTestbed } from './guardTestbed';

const bed = useGuardTestbed();

describe('purgeHistory', () => {
  it('deletes the history older than the retention and records the purge', async () => {
    const { prisma } = bed.database;
    await bed.guard(TABLE, 'RECORD');
    const client = await bed.connect();
    await client.query(`UPDATE ${TARGET} SET price = 3 WHERE id = 1`);
    await client.query(`UPDATE ${TARGET} SET price = 4 WHERE id = 2`);
    const [old, recent] = await prisma.changeSet.findMany({ orderBy: { id: 'asc' } });
    await prisma.changeSet.update({
      where: { id: old?.id },
      data: { at: new Date(Date.now() - 10 * 24 * 3600 * 1000) },
    });

    expect(await purgeHistory(prisma, { retentionDays: 7, batchSize: 100 })).toEqual({
      changeSets: 1,
      rowChanges: 1,
    });
    expect((await prisma.changeSet.findMany()).map((set) => set.id)).toEqual([recent?.id]);
    expect(await prisma.rowChange.count({ where: { changeSetId: old?.id } })).toBe(0);
    const outbox = await prisma.outboxEvent.findMany({ where: { type: 'unlocked_write' } });
    expect(outbox.map((event) => event.changeSetId)).toEqual([recent?.id]);
    const [event] = await prisma.securityEvent.findMany({ where: { action: 'history_purged' } });
    expect(event).toMatchObject({
      actor: 'system',
      details: { retentionDays: 7, changeSets: 1, rowChanges: 1 },
    });
    expect(await purgeHistory(prisma, { retentionDays: 7, batchSize: 100 })).toEqual({
      changeSets: 0,
      rowChanges: 0,
    });
  });
});
