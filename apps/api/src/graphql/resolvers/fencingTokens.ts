import type { ApiContext } from '../../context';
import { callerOf } from './callerOf';

/**
 * A recorded fencing token as the caller may read it. With `tablelock.use_lock`, a live token
 * lets a database login write the table in its holder's name, and tokens come in sequence:
 * only admins and `holders` (whose lock it was, or a take-over's displaced holder, who needs it
 * to know their acquisition ended) read it; others get null.
 */
export function tokenFor(
  context: ApiContext,
  token: string | null,
  holders: readonly (string | null)[],
): string | null {
  const caller = callerOf(context);
  return caller.role === 'admin' || holders.includes(caller.name) ? token : null;
}
