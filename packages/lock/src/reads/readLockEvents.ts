import {
  type HistoryBound,
  type HistoryPage,
  type LockAction,
  Prisma,
  type Queryable,
  readHistoryPage,
} from '@tablelock/db';
import { type HistoryPageRequest, requireHistoryPage } from '@tablelock/errors';
import { LOCK_EVENT } from '../sql/registryTables';
import { parseTableStates, type TableState } from './tableState';

/** One entry of the audit history, as read or as announced. */
export interface LockEventRecord {
  id: string;
  at: Date;
  action: LockAction;
  tableName: string;
  actor: string;
  editor: string | null;
  token: string | null;
  reason: string | null;
  rowsChanged: number | null;
  /** For take-overs: whose lock it was. */
  previousEditor: string | null;
  /**
   * Announced events only: the new lock state of every table the change wrote, by name (empty
   * when it wrote none); null when too many to announce. Absent in the history.
   */
  tables?: TableState[] | null;
}

export interface LockEventFilter {
  table?: string | null;
  /** Matches the actor or the editor. */
  user?: string | null;
  actions?: LockAction[] | null;
  from?: Date | null;
  to?: Date | null;
}

export type LockEventPage = HistoryPage<LockEventRecord>;

/** A page of the audit history, newest first, filtered by table, user, actions and time. */
export function readLockEvents(
  db: Queryable,
  filter: LockEventFilter,
  page: HistoryPageRequest,
): Promise<LockEventPage> {
  requireHistoryPage(page);
  const conditions = [
    filter.table ? Prisma.sql`table_name = ${filter.table}` : null,
    filter.user ? Prisma.sql`(actor = ${filter.user} OR editor = ${filter.user})` : null,
    filter.actions?.length
      ? Prisma.sql`action = ANY(${filter.actions}::tablelock."LockAction"[])`
      : null,
    filter.from ? Prisma.sql`at >= ${filter.from}` : null,
    filter.to ? Prisma.sql`at < ${filter.to}` : null,
  ].filter((condition): condition is Prisma.Sql => condition !== null);
  const where = (bound: HistoryBound) => {
    const all = [
      ...conditions,
      bound.olderThan !== undefined ? Prisma.sql`lock_event.id < ${bound.olderThan}` : null,
      bound.newerThan !== undefined ? Prisma.sql`lock_event.id > ${bound.newerThan}` : null,
    ].filter((condition): condition is Prisma.Sql => condition !== null);
    return all.length > 0 ? Prisma.sql`WHERE ${Prisma.join(all, ' AND ')}` : Prisma.empty;
  };
  return readHistoryPage(page, {
    events: (bound, order, offset, take) => db.$queryRaw<LockEventRecord[]>`
      SELECT id::text AS id, at, action::text AS action, table_name AS "tableName", actor, editor,
             token::text AS token, reason, rows_changed AS "rowsChanged",
             details->>'previousEditor' AS "previousEditor"
      FROM ${LOCK_EVENT} ${where(bound)}
      ORDER BY lock_event.id ${order === 'newest' ? Prisma.sql`DESC` : Prisma.sql`ASC`}
      LIMIT ${take} OFFSET ${offset}`,
    exists: async (bound) => {
      const [row] = await db.$queryRaw<{ found: boolean }[]>`
        SELECT EXISTS (SELECT 1 FROM ${LOCK_EVENT} ${where(bound)}) AS found`;
      return row?.found ?? false;
    },
    count: async (cap) => {
      const [row] = await db.$queryRaw<{ total: number }[]>`
        SELECT count(*)::int AS total
        FROM (SELECT 1 FROM ${LOCK_EVENT} ${where({})} LIMIT ${cap}) AS matching`;
      return row?.total ?? 0;
    },
  });
}

/** An event as announced on LOCK_CHANNEL (see NOTIFY_EVENT), or undefined if it is not one. */
export function parseAnnouncedEvent(payload: string): LockEventRecord | undefined {
  try {
    const raw = JSON.parse(payload) as Record<string, unknown> & { rowsChanged?: number | null };
    if (typeof raw.id !== 'string' || typeof raw.table !== 'string') return undefined;
    return {
      id: raw.id,
      at: new Date(String(raw.at)),
      action: raw.action as LockAction,
      tableName: raw.table,
      actor: String(raw.actor),
      editor: (raw.editor as string | null) ?? null,
      token: (raw.token as string | null) ?? null,
      reason: (raw.reason as string | null) ?? null,
      rowsChanged: raw.rowsChanged ?? null,
      previousEditor: (raw.previousEditor as string | null) ?? null,
      tables: parseTableStates(raw.tables),
    };
  } catch {
    return undefined;
  }
}
