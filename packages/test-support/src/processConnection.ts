import pg from 'pg';

/**
 * A connection standing for an API process: its application_name is the process's mark (its
 * LISTEN connection's), by which the line counts the process's waiters and claims while it is
 * open. Ending it is the process gone.
 */
export async function openProcessConnection(url: string, name: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: name });
  await client.connect();
  return client;
}
