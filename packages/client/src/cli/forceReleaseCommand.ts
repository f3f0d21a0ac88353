import { randomUUID } from 'node:crypto';
import { connectToApi } from '../tablelockApi';
import { COMMAND_RETRY_MS, connectionOf, parseCommandLine } from './commandLine';
import { EXIT } from './exitCodes';
import { forceReleaseMutation } from './tableOperations';
import { UsageError } from './UsageError';

/** `tablelock force-release <table> --reason <text>`: an admin ends whoever's lock. */
export async function forceReleaseCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, { reason: { type: 'string' } });
  const [table, ...extra] = positionals;
  if (!table || extra.length > 0 || !values.reason?.trim()) {
    throw new UsageError(
      'Name one table and why: tablelock force-release <table> --reason "<why>"',
    );
  }
  const api = connectToApi(connectionOf(values));
  const { forceRelease } = await api.request(
    forceReleaseMutation,
    { table, reason: values.reason, idempotencyKey: randomUUID() },
    { retryForMs: COMMAND_RETRY_MS },
  );
  process.stdout.write(`${forceRelease.name}: ${forceRelease.status}\n`);
  return EXIT.ok;
}
