import { randomUUID } from 'node:crypto';
import type { TypedDocumentString } from '../generated/graphql';
import { releaseTableLockMutation } from '../lockOperations';
import { connectToApi } from '../tablelockApi';
import { COMMAND_RETRY_MS, connectionOf, parseCommandLine } from './commandLine';
import { EXIT } from './exitCodes';
import { forceReleaseMutation } from './tableOperations';
import { UsageError } from './UsageError';

/** `tablelock release <table> --token <token>`: ends the caller's own lock (a job that died). */
export const releaseCommand = (args: string[]) =>
  endLock(
    args,
    'token',
    'Name one table and its token: tablelock release <table> --token <token>',
    releaseTableLockMutation,
    (table, token, idempotencyKey) => ({ table, token, idempotencyKey }),
    (answer) => answer.releaseTableLock,
  );

/** `tablelock force-release <table> --reason <text>`: an admin ends whoever's lock. */
export const forceReleaseCommand = (args: string[]) =>
  endLock(
    args,
    'reason',
    'Name one table and why: tablelock force-release <table> --reason "<why>"',
    forceReleaseMutation,
    (table, reason, idempotencyKey) => ({ table, reason, idempotencyKey }),
    (answer) => answer.forceRelease,
  );

/** Ends the lock on the one table named, with the `option` it needs; prints its new status. */
async function endLock<TResult, TVariables>(
  args: string[],
  option: 'token' | 'reason',
  usage: string,
  mutation: TypedDocumentString<TResult, TVariables>,
  variables: (table: string, value: string, idempotencyKey: string) => TVariables,
  tableOf: (answer: TResult) => { name: string; status: string },
): Promise<number> {
  const { values, positionals } = parseCommandLine(args, { [option]: { type: 'string' } });
  const [table, ...extra] = positionals;
  const value = values[option];
  if (!table || extra.length > 0 || typeof value !== 'string' || !value.trim()) {
    throw new UsageError(usage);
  }
  const answer = await connectToApi(connectionOf(values)).request(
    mutation,
    variables(table, value, randomUUID()),
    { retryForMs: COMMAND_RETRY_MS },
  );
  const ended = tableOf(answer);
  process.stdout.write(`${ended.name}: ${ended.status}\n`);
  return EXIT.ok;
}
