/** Where an editing tab stands with its idle limit. */
export type IdlePhase =
  /** Within the limit, before the warning. */
  | 'active'
  /** The countdown: the lock ends at the limit unless the user shows activity. */
  | 'warning'
  /** The limit has passed: the server ends the lock (it decides, on its clock). */
  | 'ending';

/** When this tab warns of the idle limit and when the limit is reached, on the page's clock. */
export interface IdleDeadline {
  warnAt: number;
  releaseAt: number;
}

/** How long before the limit the countdown starts, for limits of 4 minutes and more. */
export const IDLE_WARNING_MS = 120_000;

/** What a grant (acquisition or renewal) says about the idle limit, on the database clock. */
export interface IdleGrant {
  leaseExpiresAt: string | null;
  lastActiveAt: string | null;
  idleLimitSeconds: number | null;
}

/**
 * The idle deadline a grant sets, on the page's clock. The server's clock may differ from the
 * page's: the grant's lease end, `leaseSeconds` after the server's now at the write, tells the
 * server's time; taking it as the time the answer arrived (`receivedAt`, later than the write)
 * puts the deadline at or after the server's, never before. The countdown starts two minutes
 * before the limit, or halfway for limits under four minutes. Null: the lock does not go idle.
 */
export function idleDeadline(
  grant: IdleGrant,
  leaseSeconds: number,
  receivedAt: number,
): IdleDeadline | null {
  if (!grant.leaseExpiresAt || !grant.lastActiveAt || grant.idleLimitSeconds === null) return null;
  const serverNow = Date.parse(grant.leaseExpiresAt) - leaseSeconds * 1000;
  const limitMs = grant.idleLimitSeconds * 1000;
  const releaseAt = Date.parse(grant.lastActiveAt) + limitMs - serverNow + receivedAt;
  return { warnAt: releaseAt - Math.min(IDLE_WARNING_MS, limitMs / 2), releaseAt };
}

/** The phase at `now` (page clock) under `deadline`. */
export function idlePhaseAt(deadline: IdleDeadline | null, now: number): IdlePhase {
  if (!deadline || now < deadline.warnAt) return 'active';
  return now < deadline.releaseAt ? 'warning' : 'ending';
}
