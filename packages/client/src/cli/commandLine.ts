import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { TablelockClientConfig } from '../tablelockApi';
import { UsageError } from './UsageError';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every command takes: where the API is and the key to call it with. */
const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
} as const satisfies Options;

/** A command's arguments: its own `options` and the connection's, then positionals. */
export function parseCommandLine<const T extends Options>(args: string[], options: T) {
  try {
    return parseArgs({
      args,
      options: { ...CONNECTION_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The API's address and key: the flags, else TABLELOCK_URL and TABLELOCK_API_KEY. */
export function connectionOf(values: { url?: string; 'api-key'?: string }): TablelockClientConfig {
  const url = values.url ?? process.env.TABLELOCK_URL;
  const apiKey = values['api-key'] ?? process.env.TABLELOCK_API_KEY;
  if (!url) throw new UsageError('Say where the API is: TABLELOCK_URL or --url.');
  if (!URL.canParse(url)) throw new UsageError(`${url} is not a URL (e.g. http://127.0.0.1:4000).`);
  if (!apiKey) throw new UsageError('Give an API key: TABLELOCK_API_KEY or --api-key.');
  return { url, apiKey };
}

/** How long a command retries while the API cannot be reached: someone is waiting at a prompt. */
export const COMMAND_RETRY_MS = 10_000;
