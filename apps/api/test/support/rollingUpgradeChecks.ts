import type { Acknowledgement } from './rollingLoad';

/** Acknowledged saves whose row is not in its table: `rows` holds each table's primary keys now. */
export function lostSaves(
  acknowledged: Acknowledgement[],
  rows: Map<string, Set<number>>,
): string[] {
  return acknowledged
    .filter((ack) => ack.action === 'save' && !rows.get(ack.table)?.has(ack.rowId ?? Number.NaN))
    .map((ack) => `${ack.table} row ${ack.rowId} (saved with token ${ack.token})`);
}

/**
 * Acknowledged grants that are no longer valid: neither released by their holder (an
 * acknowledged release) nor still their table's grant (`grants`: each table's token now).
 */
export function invalidGrants(
  acknowledged: Acknowledgement[],
  grants: Map<string, string | null>,
): string[] {
  const released = new Set(
    acknowledged
      .filter((ack) => ack.action === 'release')
      .map((ack) => `${ack.table} ${ack.token}`),
  );
  return acknowledged
    .filter(
      (ack) =>
        ack.action === 'acquire' &&
        !released.has(`${ack.table} ${ack.token}`) &&
        grants.get(ack.table) !== ack.token,
    )
    .map((ack) => `${ack.table} token ${ack.token} (the table's grant: ${grants.get(ack.table)})`);
}

/** Cycles that ended in [from, to]. */
export function cyclesBetween(cycleEnds: number[], from: number, to: number): number {
  return cycleEnds.filter((end) => end >= from && end <= to).length;
}

/** The longest time in [from, to] in which no cycle ended. */
export function longestPauseMs(cycleEnds: number[], from: number, to: number): number {
  const ends = [
    from,
    ...cycleEnds.filter((end) => end > from && end < to).sort((a, b) => a - b),
    to,
  ];
  return Math.max(...ends.slice(1).map((end, i) => end - (ends[i] as number)));
}
