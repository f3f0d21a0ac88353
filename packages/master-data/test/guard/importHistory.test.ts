import { MASTER_SCHEMA } from '@tablelock/test-support';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyImport, dryRunImport, readRowHistory } from '../../src';
import { TABLE, useGuardTestbed } from './guardTestbed';

const bed = useGuardTestbed();

// A row history per imported row, in one change set. The cost at 100,000 rows is measured by
// `pnpm bench` (the write guard's import scenario), not by this test's clock.
const ROWS = 20_000;

describe('the row history of an import', () => {
  beforeEach(() => bed.guard(TABLE, 'RECORD'));

  it(`records each of ${ROWS} imported rows, in one import change set`, async () => {
    const token = await bed.lock(TABLE, 'alice');
    const lines = Array.from({ length: ROWS }, (_, i) => `${i + 10},item ${i},${i % 100}.5`);
    const report = await dryRunImport(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: TABLE,
      holder: 'alice',
      token,
      fileName: `${TABLE}.csv`,
      format: 'csv',
      content: Buffer.from(`id,name,price\r\n${lines.join('\r\n')}\r\n`),
    });
    await applyImport(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      id: report.id,
      holder: 'alice',
      token,
    });
    const changeSets = await bed.database.prisma.changeSet.findMany({
      where: { tableName: TABLE },
    });
    expect(changeSets).toMatchObject([{ kind: 'import', actor: 'alice', rowsInserted: ROWS }]);
    // Read as every reader reads it: one row change per row, or (1,000 rows or more) batches.
    const [recorded] = await bed.database.prisma.$queryRaw<{ inserted: number }[]>`
      SELECT count(*)::int AS inserted FROM tablelock.recorded_row_change
      WHERE change_set_id = ${changeSets[0]?.id} AND operation = 'insert'`;
    expect(recorded?.inserted).toBe(ROWS);
    const history = await readRowHistory(
      bed.database.prisma,
      MASTER_SCHEMA,
      TABLE,
      { id: `${ROWS + 9}` },
      { first: 10 },
    );
    expect(history.rows.map((row) => [row.changeSet.id, row.newValues])).toEqual([
      [String(changeSets[0]?.id), { id: `${ROWS + 9}`, name: `item ${ROWS - 1}`, price: '99.5' }],
    ]);
  });
});
