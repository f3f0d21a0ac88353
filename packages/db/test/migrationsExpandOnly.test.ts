import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  expandOnlyViolations,
  previousRelease,
} from '../../../scripts/check-migrations-expand-only.mjs';

const root = new URL('../../../', import.meta.url).pathname;
const script = join(root, 'scripts/check-migrations-expand-only.mjs');
const folders: string[] = [];

/** A migrations folder holding only `migrations` (name → SQL), all newer than any release's. */
async function migrationsFolder(migrations: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'tablelock-expand-only-'));
  folders.push(folder);
  for (const [name, sql] of Object.entries(migrations)) {
    await mkdir(join(folder, name));
    await writeFile(join(folder, name, 'migration.sql'), sql);
  }
  return folder;
}

afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true })));
});

describe('migrations since the previous release only expand what that release uses', () => {
  // releases.json names v0.5.0, whose commit every later main contains.
  const previous = previousRelease(root);
  if (!previous) throw new Error('releases.json names no release before HEAD');

  it('refuses a DROP COLUMN of a column the previous release uses, naming where it uses it', async () => {
    const migrationsDir = await migrationsFolder({
      '20991231000000_contract_fencing_token': [
        '-- A deliberate contraction in the same release.',
        'ALTER TABLE "tablelock"."table_lock" DROP COLUMN "fencing_token";',
        '',
      ].join('\n'),
    });
    const [violation, ...others] = expandOnlyViolations({ root, previous, migrationsDir });
    expect(others).toEqual([]);
    expect(violation).toMatchObject({
      file: join(migrationsDir, '20991231000000_contract_fencing_token/migration.sql'),
      line: 2,
      change: 'DROP COLUMN',
      object: 'table_lock.fencing_token',
    });
    expect(violation?.uses).toContainEqual(expect.stringMatching(/^prisma\/schema\.prisma:\d+$/));

    // The check as `pnpm lint` runs it: refused, with the file, the object, a use and the rule.
    const run = await promisify(execFile)(process.execPath, [script, migrationsDir], {
      cwd: root,
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in run && run.code).toBe(1);
    expect(run.stderr).toContain('20991231000000_contract_fencing_token/migration.sql:2');
    expect(run.stderr).toContain(
      `DROP COLUMN table_lock.fencing_token, which ${previous.version} uses`,
    );
    expect(run.stderr).toContain('expand now, contract in the next release');
  });

  it('refuses renames and drops of tables and functions the previous release uses', async () => {
    const migrationsDir = await migrationsFolder({
      '20991231000000_contract_many': [
        'ALTER TABLE tablelock.lock_event RENAME COLUMN token TO fencing;',
        'ALTER TABLE IF EXISTS ONLY tablelock.row_lock RENAME TO row_locks;',
        'DROP TABLE IF EXISTS "tablelock"."left_out_table" CASCADE;',
        'DROP FUNCTION tablelock.next_fencing_token();',
        'ALTER TYPE "tablelock"."TableStatus" RENAME VALUE \'editing\' TO \'held\';',
        // Not contractions: a constraint, a default, a NOT NULL.
        'ALTER TABLE tablelock.table_lock DROP CONSTRAINT whatever, ALTER COLUMN editor DROP NOT NULL,',
        '  ALTER COLUMN status DROP DEFAULT;',
      ].join('\n'),
    });
    const found = expandOnlyViolations({ root, previous, migrationsDir });
    expect(found.map(({ line, change, object }) => ({ line, change, object }))).toEqual([
      { line: 1, change: 'RENAME COLUMN', object: 'lock_event.token' },
      { line: 2, change: 'RENAME TABLE', object: 'row_lock' },
      { line: 3, change: 'DROP TABLE', object: 'left_out_table' },
      { line: 4, change: 'DROP FUNCTION', object: 'next_fencing_token' },
      { line: 5, change: 'RENAME VALUE', object: 'TableStatus.editing' },
    ]);
  });

  it('allows dropping a column that was added after the previous release', async () => {
    const migrationsDir = await migrationsFolder({
      '20991230000000_expand':
        'ALTER TABLE tablelock.table_lock ADD COLUMN drill_scratch_note text;\n',
      '20991231000000_contract':
        'ALTER TABLE tablelock.table_lock DROP COLUMN drill_scratch_note;\n',
    });
    expect(expandOnlyViolations({ root, previous, migrationsDir })).toEqual([]);
  });

  it("passes on the repository's own migrations", () => {
    expect(expandOnlyViolations({ root, previous })).toEqual([]);
  });
});
