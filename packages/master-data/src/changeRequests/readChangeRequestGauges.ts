import type { Queryable } from '@tablelock/db';
import { CHANGE_REQUEST_STATES, type ChangeRequestState } from './core/changeRequestState';

/** How many change requests are in each state (every state, zero included). */
export async function readChangeRequestGauges(
  db: Queryable,
): Promise<Record<ChangeRequestState, number>> {
  const counted = await db.changeRequest.groupBy({ by: ['state'], _count: { _all: true } });
  const byState = new Map(counted.map((group) => [group.state, group._count._all]));
  return Object.fromEntries(
    CHANGE_REQUEST_STATES.map((state) => [state, byState.get(state) ?? 0]),
  ) as Record<ChangeRequestState, number>;
}
