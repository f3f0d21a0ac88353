import type { Queryable } from '@tablelock/db';
import { releaseLocksOf } from '@tablelock/lock';

/**
 * Lets go of what `editor` still holds when a run of its request or edition starts: an earlier
 * run cut off by the database (a failover) after it took its tables could not release them, and
 * its own lock would refuse this run ("being edited by" itself) and fail the request. The editor
 * is the request's or edition's alone, and the claim lets one run of it go at a time, so what it
 * holds can only be such a leftover; a run still going elsewhere is fenced off by the new token.
 */
export async function releaseLeftoverLocks(db: Queryable, editor: string, what: string) {
  await releaseLocksOf(db, {
    editor,
    actor: editor,
    reason: `${what}: held by an earlier run that did not end`,
  });
}
