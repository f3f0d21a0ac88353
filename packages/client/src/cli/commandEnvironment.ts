import type { TablelockClientConfig } from '../tablelockApi';

/**
 * The environment of the command `tablelock lock` runs: ours, with the API's URL and the
 * fencing tokens. The API key only when asked for (`--pass-api-key`): it outlives the lock and
 * may lock any table, so a job that only needs the tokens should not hold it.
 */
export function commandEnvironment(
  config: TablelockClientConfig,
  tokens: Readonly<Record<string, string>>,
  passApiKey: boolean,
): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    TABLELOCK_URL: config.url,
    TABLELOCK_TOKENS: JSON.stringify(tokens),
  };
  delete environment.TABLELOCK_API_KEY;
  if (passApiKey) environment.TABLELOCK_API_KEY = config.apiKey;
  const tables = Object.keys(tokens);
  if (tables.length === 1) environment.TABLELOCK_TOKEN = tokens[tables[0] ?? ''];
  return environment;
}
