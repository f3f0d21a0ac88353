import type { TablesStatusQuery } from '../generated/graphql';
import { isTablelockError, TablelockError } from '../TablelockError';
import { connectToApi, type TablelockApi } from '../tablelockApi';
import { COMMAND_RETRY_MS, connectionOf, parseCommandLine } from './commandLine';
import { EXIT } from './exitCodes';
import { formatStatusTable } from './formatStatusTable';
import { tablesStatusQuery } from './tableOperations';
import { UsageError } from './UsageError';

/** `tablelock status [table] [--json]`: who holds what, and who waits. */
export async function statusCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, { json: { type: 'boolean' } });
  const [name, ...extra] = positionals;
  if (extra.length > 0)
    throw new UsageError('status takes at most one table: tablelock status [table]');
  const tables = await readTables(connectToApi(connectionOf(values)));
  const shown = name === undefined ? tables : tables.filter((table) => table.name === name);
  if (shown.length === 0 && name !== undefined) {
    throw new TablelockError('TABLE_NOT_FOUND', `No master table is named ${name}.`);
  }
  process.stdout.write(
    values.json ? `${JSON.stringify(shown, null, 2)}\n` : formatStatusTable(shown, new Date()),
  );
  return EXIT.ok;
}

async function readTables(api: TablelockApi): Promise<TablesStatusQuery['tables']> {
  const read = async (withWaiters: boolean) =>
    (await api.request(tablesStatusQuery, { withWaiters }, { retryForMs: COMMAND_RETRY_MS }))
      .tables;
  try {
    return await read(true);
  } catch (error) {
    // An API without the waiting line (older, or not resolving `waiters`): no waiters to show.
    const noWaiters =
      isTablelockError(error, 'GRAPHQL_VALIDATION_FAILED') ||
      (isTablelockError(error) && error.path?.includes('waiters'));
    if (!noWaiters) throw error;
    return read(false);
  }
}
