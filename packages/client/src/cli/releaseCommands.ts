import { randomUUID } from 'node:crypto';
import { releaseTableLockMutation } from '../lockOperations';
import { connectToApi, type TablelockApi } from '../tablelockApi';
import { COMMAND_RETRY_MS, connectionOf, parseCommandLine } from './commandLine';
import { EXIT } from './exitCodes';
import { forceReleaseMutation } from './tableOperations';
import { UsageError } from './UsageError';

/** `tablelock release <table> --token <token>`: ends the caller's own lock (a job that died). */
export function releaseCommand(args: string[]): Promise<number> {
  return endLock(
    args,
    'token',
    'Name one table and its token: tablelock release <table> --token <token>',
    async (api, table, token, idempotencyKey) =>
      (
        await api.request(
          releaseTableLockMutation,
          { table, token, idempotencyKey },
          { retryForMs: COMMAND_RETRY_MS },
        )
      ).releaseTableLock,
  );
}

/** `tablelock force-release <table> --reason <text>`: an admin ends whoever's lock. */
export function forceReleaseCommand(args: string[]): Promise<number> {
  return endLock(
    args,
    'reason',
    'Name one table and why: tablelock force-release <table> --reason "<why>"',
    async (api, table, reason, idempotencyKey) =>
      (
        await api.request(
          forceReleaseMutation,
          { table, reason, idempotencyKey },
          { retryForMs: COMMAND_RETRY_MS },
        )
      ).forceRelease,
  );
}

/** Ends the lock on the one table named, with the `option` it needs; prints its new status. */
async function endLock(
  args: string[],
  option: 'token' | 'reason',
  usage: string,
  end: (
    api: TablelockApi,
    table: string,
    value: string,
    idempotencyKey: string,
  ) => Promise<{ name: string; status: string }>,
): Promise<number> {
  const { values, positionals } = parseCommandLine(args, { [option]: { type: 'string' } });
  const [table, ...extra] = positionals;
  const value = values[option];
  if (!table || extra.length > 0 || typeof value !== 'string' || !value.trim()) {
    throw new UsageError(usage);
  }
  const ended = await end(connectToApi(connectionOf(values)), table, value, randomUUID());
  process.stdout.write(`${ended.name}: ${ended.status}\n`);
  return EXIT.ok;
}
