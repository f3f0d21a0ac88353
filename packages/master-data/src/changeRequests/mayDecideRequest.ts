import type { Queryable } from '@tablelock/db';
import { approverRulesOf } from './approverRulesOf';
import type { ChangeRequestRecord } from './changeRequestRecord';
import type { RequestActor } from './core/approverRules';
import { planRequestStep } from './core/planRequestStep';

/** Whether `actor` may approve (reject, send back) `request` now. */
export async function mayDecideRequest(
  db: Queryable,
  request: ChangeRequestRecord,
  actor: RequestActor,
): Promise<boolean> {
  const rules = await approverRulesOf(db, request.tableName);
  return planRequestStep(request, { kind: 'approve', actor }, rules).allowed;
}
