import type { Prisma, Queryable, Role, SecurityAction } from '@tablelock/db';
import { requireHistoryPage } from '@tablelock/errors';
import { type SecurityEventDetails, securityEventDetails } from './securityEvent';

/** One entry of the security audit, as read. */
export interface SecurityEventRecord {
  id: string;
  at: Date;
  action: SecurityAction;
  actor: string | null;
  subject: string;
  ip: string | null;
  role: Role | null;
  previousRole: Role | null;
  loginFailure: NonNullable<SecurityEventDetails['loginFailure']> | null;
  signInMethod: NonNullable<SecurityEventDetails['signInMethod']> | null;
  groups: string[] | null;
  failureDetail: string | null;
  changes: SecurityEventDetails['changes'] | null;
}

export interface SecurityEventFilter {
  /** Matches the actor or the subject. */
  user?: string | null;
  actions?: SecurityAction[] | null;
  from?: Date | null;
  to?: Date | null;
}

export interface SecurityEventPage {
  events: SecurityEventRecord[];
  total: number;
}

/** A page of the security audit, newest first, filtered by user, actions and time. */
export async function readSecurityEvents(
  db: Queryable,
  filter: SecurityEventFilter,
  page: { offset: number; limit: number },
): Promise<SecurityEventPage> {
  requireHistoryPage(page);
  const where: Prisma.SecurityEventWhereInput = {
    ...(filter.user ? { OR: [{ actor: filter.user }, { subject: filter.user }] } : {}),
    ...(filter.actions?.length ? { action: { in: filter.actions } } : {}),
    at: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) },
  };
  const [rows, total] = await Promise.all([
    db.securityEvent.findMany({
      where,
      orderBy: { id: 'desc' },
      skip: page.offset,
      take: page.limit,
    }),
    db.securityEvent.count({ where }),
  ]);
  return {
    total,
    events: rows.map(({ id, details, ...row }) => {
      // Details that do not parse (written by hand, say) still leave who did what to whom.
      const known = securityEventDetails.safeParse(details ?? {});
      const {
        role,
        previousRole,
        loginFailure,
        signInMethod,
        groups,
        failureDetail,
        idleLimitSeconds,
        previousIdleLimitSeconds,
        changes,
      } = known.success ? known.data : {};
      return {
        ...row,
        id: id.toString(),
        role: role ?? null,
        previousRole: previousRole ?? null,
        loginFailure: loginFailure ?? null,
        signInMethod: signInMethod ?? null,
        groups: groups ?? null,
        failureDetail: failureDetail ?? null,
        idleLimitSeconds: idleLimitSeconds ?? null,
        previousIdleLimitSeconds: previousIdleLimitSeconds ?? null,
        changes: changes ?? null,
      };
    }),
  };
}
