import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// How the global setup tells the workers (which inherit its environment) where the record is.
const RECORD_VARIABLE = 'TABLELOCK_E2E_SCANNED_STATES';

/**
 * Makes this run's record of the page states that passed expectAccessibleOnce
 * (support/accessibility.ts), shared by its workers: a state one worker scanned, the others
 * need not scan again. Answers its removal, for the global teardown.
 */
export async function makeScanRecord(): Promise<() => Promise<void>> {
  const record = await mkdtemp(join(tmpdir(), 'tablelock-e2e-scanned-'));
  process.env[RECORD_VARIABLE] = record;
  return () => rm(record, { recursive: true, force: true });
}

const fileOf = (state: string) => {
  const record = process.env[RECORD_VARIABLE];
  if (!record) throw new Error(`${RECORD_VARIABLE} is not set: the global setup makes it.`);
  return join(record, createHash('sha256').update(state).digest('hex'));
};

/** Whether a state (a description that names it fully) passed a scan in this run. */
export const passedBefore = (state: string): boolean => existsSync(fileOf(state));

/** Records that a state passed its scan. */
export function recordPassed(state: string): void {
  writeFileSync(fileOf(state), '');
}
