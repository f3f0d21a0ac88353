import {
  type HistoryBound,
  type HistoryPage,
  type Prisma,
  type Queryable,
  type Role,
  readHistoryPage,
  type SecurityAction,
} from '@tablelock/db';
import { type HistoryPageRequest, requireHistoryPage } from '@tablelock/errors';
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
  idleLimitSeconds: number | null;
  previousIdleLimitSeconds: number | null;
  changes: SecurityEventDetails['changes'] | null;
}

export interface SecurityEventFilter {
  /** Matches the actor or the subject. */
  user?: string | null;
  actions?: SecurityAction[] | null;
  from?: Date | null;
  to?: Date | null;
}

export type SecurityEventPage = HistoryPage<SecurityEventRecord>;

/** A page of the security audit, newest first, filtered by user, actions and time. */
export function readSecurityEvents(
  db: Queryable,
  filter: SecurityEventFilter,
  page: HistoryPageRequest,
): Promise<SecurityEventPage> {
  requireHistoryPage(page);
  const where: Prisma.SecurityEventWhereInput = {
    ...(filter.user ? { OR: [{ actor: filter.user }, { subject: filter.user }] } : {}),
    ...(filter.actions?.length ? { action: { in: filter.actions } } : {}),
    at: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) },
  };
  const within = ({ olderThan, newerThan }: HistoryBound): Prisma.SecurityEventWhereInput => ({
    ...where,
    id: {
      ...(olderThan !== undefined ? { lt: olderThan } : {}),
      ...(newerThan !== undefined ? { gt: newerThan } : {}),
    },
  });
  return readHistoryPage(page, {
    events: async (bound, order, offset, take) =>
      (
        await db.securityEvent.findMany({
          where: within(bound),
          orderBy: { id: order === 'newest' ? 'desc' : 'asc' },
          skip: offset,
          take,
        })
      ).map(asRecord),
    exists: async (bound) =>
      (await db.securityEvent.findFirst({ where: within(bound), select: { id: true } })) !== null,
    count: (cap) => db.securityEvent.count({ where, take: cap }),
  });
}

type SecurityEventRow = Awaited<ReturnType<Queryable['securityEvent']['findFirstOrThrow']>>;

/** A stored security event as read: its details spread into fields. */
function asRecord({ id, details, ...row }: SecurityEventRow): SecurityEventRecord {
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
}
