import { randomUUID } from 'node:crypto';
import { releaseTableLockMutation } from '../lockOperations';
import { connectToApi } from '../tablelockApi';
import { COMMAND_RETRY_MS, connectionOf, parseCommandLine } from './commandLine';
import { EXIT } from './exitCodes';
import { UsageError } from './UsageError';

/** `tablelock release <table> --token <token>`: ends the caller's own lock (a job that died). */
export async function releaseCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, { token: { type: 'string' } });
  const [table, ...extra] = positionals;
  if (!table || extra.length > 0 || !values.token) {
    throw new UsageError('Name one table and its token: tablelock release <table> --token <token>');
  }
  const api = connectToApi(connectionOf(values));
  const { releaseTableLock } = await api.request(
    releaseTableLockMutation,
    { table, token: values.token, idempotencyKey: randomUUID() },
    { retryForMs: COMMAND_RETRY_MS },
  );
  process.stdout.write(`${releaseTableLock.name}: ${releaseTableLock.status}\n`);
  return EXIT.ok;
}
