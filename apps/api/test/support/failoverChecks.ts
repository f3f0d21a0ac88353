import type { PrismaClient } from '@tablelock/db';
import type { LineAcknowledgement } from './failoverLine';
import type { Acknowledgement } from './failoverLoad';

/** The lock history on the database now (the new primary), in the order it was written. */
export async function lockHistory(prisma: PrismaClient) {
  const events = await prisma.lockEvent.findMany({
    orderBy: { id: 'asc' },
    select: { id: true, action: true, tableName: true, token: true, editor: true, reason: true },
  });
  return events.map((event) => ({ ...event, token: event.token?.toString() ?? null }));
}

type LockHistory = Awaited<ReturnType<typeof lockHistory>>;

/** Acknowledged acquisitions, saves and releases the history does not hold: lost. */
export function lostAcknowledgements(
  acknowledged: Acknowledgement[],
  history: LockHistory,
): Acknowledgement[] {
  const kept = new Set(history.map((event) => `${event.action} ${event.tableName} ${event.token}`));
  return acknowledged.filter((ack) => !kept.has(`${ack.action} ${ack.table} ${ack.token}`));
}

/** Acknowledged grants whose token is not above the one acknowledged before on their table. */
export function fallingTokens(acknowledged: Acknowledgement[]): string[] {
  const last = new Map<string, bigint>();
  const falling: string[] = [];
  for (const ack of acknowledged) {
    if (ack.action !== 'acquire') continue;
    const token = BigInt(ack.token);
    const before = last.get(ack.table);
    if (before !== undefined && token <= before)
      falling.push(`${ack.table}: ${before} then ${token}`);
    last.set(ack.table, token);
  }
  return falling;
}

/** Tokens handed out for more than one acknowledged grant. */
export function repeatedTokens(acknowledged: Acknowledgement[]): string[] {
  const tokens = acknowledged.filter((ack) => ack.action === 'acquire').map((ack) => ack.token);
  return tokens.filter((token, index) => tokens.indexOf(token) !== index);
}

/**
 * Saves the history records behind a token that was no longer the table's grant (a later
 * acquisition, a release or an expiry came first): each is a write a fencing check let through.
 */
export function savesBehindSupersededTokens(history: LockHistory): string[] {
  const current = new Map<string, string | null>();
  const stale: string[] = [];
  for (const event of history) {
    if (event.action === 'acquire' || event.action === 'take_over') {
      current.set(event.tableName, event.token);
    } else if (['release', 'expire', 'force_release'].includes(event.action)) {
      current.set(event.tableName, null);
    } else if (event.action === 'save' && current.get(event.tableName) !== event.token) {
      stale.push(`save ${event.tableName} ${event.token} (grant: ${current.get(event.tableName)})`);
    }
  }
  return stale;
}

/**
 * Where the line for `table` broke its promise: a waiter granted before one that joined before
 * it; a waiter acknowledged in line that was neither granted nor refused with a code (lost); one
 * granted twice (two grants in the history); one the history shows dropped as `gone` (the run's
 * processes all live, so each was at most reconnecting).
 */
export function lineBreaches(
  line: LineAcknowledgement[],
  history: LockHistory,
  table: string,
): string[] {
  const breaches: string[] = [];
  const joined = line.filter((ack) => ack.event === 'inLine').map((ack) => ack.waiter);
  let lastGranted: { waiter: string; place: number } | undefined;
  for (const ack of line) {
    if (ack.event !== 'granted') continue;
    const place = joined.indexOf(ack.waiter);
    if (place < 0) continue;
    if (lastGranted && place < lastGranted.place) {
      breaches.push(`${ack.waiter} granted after ${lastGranted.waiter}, who joined later`);
    }
    lastGranted = { waiter: ack.waiter, place };
  }
  for (const waiter of joined) {
    if (!line.some((ack) => ack.waiter === waiter && ack.event !== 'inLine')) {
      breaches.push(`${waiter} was in line, then neither granted nor refused`);
    }
    const grants = history.filter(
      (event) => event.action === 'acquire' && event.tableName === table && event.editor === waiter,
    );
    if (grants.length > 1) breaches.push(`${waiter} granted ${grants.length} times`);
    const dropped = history.some(
      (event) =>
        event.action === 'dequeued' &&
        event.tableName === table &&
        event.editor === waiter &&
        event.reason === 'gone',
    );
    if (dropped) breaches.push(`${waiter} dropped from the line as gone`);
  }
  return breaches;
}
