import { describe, expect, it } from 'vitest';
import { idleDeadline, idlePhaseAt } from '../src/table/lock/idleDeadline';

const LEASE_SECONDS = 30;
// The server wrote the renewal at 10:00:00 on its clock: the lease ends 30 s later.
const grant = (lastActiveAt: string, idleLimitSeconds: number | null) => ({
  leaseExpiresAt: '2026-05-01T10:00:30.000Z',
  lastActiveAt,
  idleLimitSeconds,
});
const SERVER_WRITE = Date.parse('2026-05-01T10:00:00.000Z');

describe('idleDeadline', () => {
  it('counts the limit from the last activity, warning two minutes before it', () => {
    const deadline = idleDeadline(
      grant('2026-05-01T09:55:00.000Z', 900),
      LEASE_SECONDS,
      SERVER_WRITE,
    );
    expect(deadline).toEqual({
      releaseAt: Date.parse('2026-05-01T10:10:00.000Z'),
      warnAt: Date.parse('2026-05-01T10:08:00.000Z'),
    });
  });

  it('moves the deadline onto the page clock when it differs from the server clock', () => {
    // The page's clock is 7 minutes behind the server's: its deadline is too.
    const pageClock = SERVER_WRITE - 7 * 60_000;
    const deadline = idleDeadline(grant('2026-05-01T09:55:00.000Z', 900), LEASE_SECONDS, pageClock);
    expect(deadline?.releaseAt).toBe(Date.parse('2026-05-01T10:03:00.000Z'));
  });

  it('errs late, never early, by the time the answer took', () => {
    const deadline = idleDeadline(
      grant('2026-05-01T10:00:00.000Z', 900),
      LEASE_SECONDS,
      SERVER_WRITE + 250,
    );
    expect(deadline?.releaseAt).toBe(SERVER_WRITE + 900_000 + 250);
  });

  it('warns halfway through limits under four minutes', () => {
    const deadline = idleDeadline(
      grant('2026-05-01T10:00:00.000Z', 20),
      LEASE_SECONDS,
      SERVER_WRITE,
    );
    expect(deadline).toEqual({ warnAt: SERVER_WRITE + 10_000, releaseAt: SERVER_WRITE + 20_000 });
  });

  it('is none for a lock that cannot go idle', () => {
    expect(idleDeadline(grant('2026-05-01T10:00:00.000Z', null), LEASE_SECONDS, SERVER_WRITE)).toBe(
      null,
    );
    expect(
      idleDeadline(
        { leaseExpiresAt: null, lastActiveAt: '2026-05-01T10:00:00.000Z', idleLimitSeconds: 900 },
        LEASE_SECONDS,
        SERVER_WRITE,
      ),
    ).toBe(null);
  });
});

describe('idlePhaseAt', () => {
  const deadline = { warnAt: 1_000, releaseAt: 2_000 };
  it('is active before the warning, warning until the limit, ending from it', () => {
    expect(idlePhaseAt(deadline, 999)).toBe('active');
    expect(idlePhaseAt(deadline, 1_000)).toBe('warning');
    expect(idlePhaseAt(deadline, 1_999)).toBe('warning');
    expect(idlePhaseAt(deadline, 2_000)).toBe('ending');
  });

  it('is always active without a deadline', () => {
    expect(idlePhaseAt(null, Number.MAX_SAFE_INTEGER)).toBe('active');
  });
});
