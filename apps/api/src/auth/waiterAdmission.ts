import type { Principal } from '@tablelock/identity';
import type { WaiterAdmission } from '@tablelock/lock';
import type { ApiContext } from '../context';

/** The caller's places in line count against their own limit: per user, or per API key. */
export const waiterAdmission = (context: ApiContext, principal: Principal): WaiterAdmission => ({
  limit: context.lockQueue.waiters,
  principal: `${principal.kind}:${principal.id}`,
});
