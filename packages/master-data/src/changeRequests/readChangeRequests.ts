import type { Queryable } from '@tablelock/db';
import { decodeHistoryCursor, encodeHistoryCursor, pageSize } from '../history/historyCursor';
import { type ChangeRequestRecord, changeRequestOf } from './changeRequestRecord';
import type { RequestActor } from './core/approverRules';
import type { ChangeRequestState } from './core/changeRequestState';
import { planRequestStep } from './core/planRequestStep';

export interface ChangeRequestFilter {
  tableName?: string | null;
  states?: ChangeRequestState[] | null;
  author?: string | null;
  /** Only requests that take effect on a date (with an `effectiveAt`): what a calendar lists. */
  scheduled?: boolean | null;
}

export interface ChangeRequestPage {
  requests: ChangeRequestRecord[];
  /** Pass as `after` for the next page; null on the last. */
  endCursor: string | null;
}

const MAX_PAGE = 100;

/** Change requests, newest first, `first` (1–100) at a time after `after`. */
export async function readChangeRequests(
  db: Queryable,
  query: { filter: ChangeRequestFilter; after: string | null; first: number },
): Promise<ChangeRequestPage> {
  const { filter } = query;
  const scope = `changeRequests:${JSON.stringify([filter.tableName, filter.states, filter.author, filter.scheduled])}`;
  const first = pageSize(query.first, MAX_PAGE);
  const before = query.after === null ? null : BigInt(decodeHistoryCursor(query.after, scope));
  const stored = await db.changeRequest.findMany({
    where: {
      ...(filter.tableName ? { tableName: filter.tableName } : {}),
      ...(filter.states?.length ? { state: { in: filter.states } } : {}),
      ...(filter.author ? { author: filter.author } : {}),
      ...(filter.scheduled ? { effectiveAt: { not: null } } : {}),
      ...(before !== null ? { id: { lt: before } } : {}),
    },
    orderBy: { id: 'desc' },
    take: first + 1,
  });
  const requests = stored.slice(0, first).map(changeRequestOf);
  const last = requests.at(-1);
  return {
    requests,
    endCursor: stored.length > first && last ? encodeHistoryCursor(scope, last.id) : null,
  };
}

/** One change request; null when none has that id. */
export async function readChangeRequest(
  db: Queryable,
  id: string,
): Promise<ChangeRequestRecord | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const stored = await db.changeRequest.findUnique({ where: { id: BigInt(id) } });
  return stored ? changeRequestOf(stored) : null;
}

/** The request that carried (or carries) `tableName`'s lock under `token`, if one did. */
export async function readRequestByToken(
  db: Queryable,
  tableName: string,
  token: string,
): Promise<ChangeRequestRecord | null> {
  if (!/^\d{1,19}$/.test(token)) return null;
  const stored = await db.changeRequest.findFirst({
    where: { tableName, token: BigInt(token) },
    orderBy: { id: 'desc' },
  });
  return stored ? changeRequestOf(stored) : null;
}

/** The pending requests `actor` may approve: what an approver's queue counts. */
export async function readRequestsToDecide(
  db: Queryable,
  actor: RequestActor,
): Promise<ChangeRequestRecord[]> {
  const [pending, policies] = await Promise.all([
    db.changeRequest.findMany({ where: { state: 'pending' }, orderBy: { id: 'asc' } }),
    db.tablePolicy.findMany({
      select: { tableName: true, approverRoles: true, approverGroups: true },
    }),
  ]);
  const rulesOf = new Map(policies.map((policy) => [policy.tableName, policy]));
  const anyEditor = { approverRoles: [], approverGroups: [] };
  return pending
    .map(changeRequestOf)
    .filter(
      (request) =>
        planRequestStep(
          request,
          { kind: 'approve', actor },
          rulesOf.get(request.tableName) ?? anyEditor,
        ).allowed,
    );
}
