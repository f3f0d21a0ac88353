import type { Prisma } from '../generated/prisma/client';
import { boundedStatementNames, poolOf, type Queryable } from './prismaClient';

const nameOf = boundedStatementNames();

/**
 * Runs one fixed-shape statement of a hot path (the lock path's read and conditional write) and
 * answers its rows. On a client's own pool it goes to `pg` directly, as a named prepared
 * statement when the client keeps them: Postgres parses and plans it once per connection, and
 * Prisma Client, which adds nothing to a raw query but its own cost (about a tenth of the API's
 * time per lock request, by the CPU profile), is left out. Inside a transaction it runs through
 * the transaction client. Rows come as `pg` parses them, which differs from Prisma only for
 * int8 and numeric: a statement run here casts those to text or int.
 */
export async function queryPrepared<Row>(db: Queryable, query: Prisma.Sql): Promise<Row[]> {
  const client = poolOf(db);
  if (!client) return db.$queryRaw<Row[]>(query);
  // Prisma.Sql builds its text anew at each read.
  const text = query.text;
  const statement = client.prepared ? nameOf(text) : undefined;
  const { rows } = await client.pool.query<Row & object>({
    text: statement?.sql ?? text,
    values: query.values,
    ...(statement ? { name: statement.name } : {}),
  });
  return rows;
}
