import { poll, type TestDatabase } from '@tablelock/test-support';

/** The registry row of `table`: what the database says about its lock now. */
export async function lockOf(database: TestDatabase, table: string) {
  const row = await database.prisma.tableLock.findUniqueOrThrow({
    where: { tableName: table },
    select: { status: true, editor: true, fencingToken: true, leaseExpiresAt: true },
  });
  return { ...row, token: row.fencingToken?.toString() ?? null };
}

/** The lock history of `table`, oldest first. */
export async function eventsOf(database: TestDatabase, table: string) {
  const events = await database.prisma.lockEvent.findMany({
    where: { tableName: table },
    orderBy: { id: 'asc' },
    select: { action: true, actor: true, token: true, reason: true },
  });
  return events.map((event) => ({ ...event, token: event.token?.toString() ?? null }));
}

/** Resolves once `editor` waits in line, with the tables it waits for. */
export async function waitingInLine(database: TestDatabase, editor: string): Promise<string[]> {
  return poll(`${editor} in line`, 10_000, async () => {
    const waiter = await database.prisma.lockWaiter.findFirst({ where: { editor } });
    return waiter?.tables;
  });
}
