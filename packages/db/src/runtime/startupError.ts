/** A start that cannot go on; the message is one sentence for the operator: the cause and the fix. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/**
 * The sentence for the operator when `error` ended a start for a reason they can fix, else
 * undefined. `dataDir` is the embedded cluster's directory (absent with an external database).
 */
export function explainStartupFailure(error: unknown, dataDir?: string): string | undefined {
  if (error instanceof StartupError) return error.message;
  if (isDiskFull(error)) return diskFullMessage(dataDir);
  return undefined;
}

export function diskFullMessage(dataDir?: string): string {
  return dataDir
    ? `The disk holding ${dataDir} is full; free some space on it and start again.`
    : `The database server's disk is full; free some space on it and start again.`;
}

/** ENOSPC from Node, SQLSTATE 53100 from Postgres, or Postgres's own words in a message. */
function isDiskFull(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'ENOSPC' || code === '53100' || error.message.includes('No space left on device');
}
