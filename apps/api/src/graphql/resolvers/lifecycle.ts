import {
  acquireRowScope,
  acquireTableLock,
  acquireTableLocks,
  grantedOrConflict,
  isRowScopeToken,
  leaseSeconds,
  parseFencingToken,
  readLockEvents,
  releaseRowScope,
  releaseTableLock,
  renewRowScope,
  renewTableLock,
  reviveGrant,
  reviveGrants,
  takeOverRowScope,
  takeOverTableLock,
} from '@tablelock/lock';
import { editorRights } from '../../auth/editorRights';
import type { ApiContext } from '../../context';
import type { LockGrantResolvers, MutationResolvers, QueryResolvers } from '../generated/graphql';
import { callerOf } from './callerOf';
import { idempotentRequest } from './idempotentRequest';
import { requiredReason } from './requiredReason';
import { runLockOperation } from './runLockOperation';
import { tableInfo } from './tables';
import { waitInLine } from './waitInLine';

/** Only admin API keys (batch jobs) may hold a lock without expiry. */
const mayBeUnlimited = (context: ApiContext) =>
  context.principal?.kind === 'apiKey' && context.principal.role === 'admin';

/** The lease a caller gets for what it asked, within this process's bounds. */
const leaseFor = (asked: number | null | undefined, context: ApiContext) =>
  leaseSeconds(asked, mayBeUnlimited(context), context.minLeaseSeconds);

/** Whether the caller asked to wait in line: `wait` seconds, 0 or none meaning not. */
const waits = (wait: number | null | undefined): wait is number => wait != null && wait !== 0;

export const acquireTableLockResolver: MutationResolvers['acquireTableLock'] = async (
  _parent,
  args,
  context,
) => {
  const caller = callerOf(context);
  const lease = leaseFor(args.leaseSeconds, context);
  const idempotency = idempotentRequest(caller, args, 'acquireTableLock');
  if (args.rows != null && !waits(args.wait)) {
    const rows = args.rows;
    return runLockOperation(
      context.prisma,
      idempotency,
      (db) =>
        acquireRowScope(db, {
          tableName: args.table,
          rows,
          editor: caller.name,
          leaseSeconds: lease,
          rights: editorRights(caller),
          masterSchema: context.masterSchema,
        }),
      reviveGrant,
    );
  }
  if (!waits(args.wait)) {
    return runLockOperation(
      context.prisma,
      idempotency,
      (db) =>
        acquireTableLock(db, {
          tableName: args.table,
          editor: caller.name,
          leaseSeconds: lease,
          rights: editorRights(caller),
        }),
      reviveGrant,
    );
  }
  const [grant] = await waitInLine(
    context,
    idempotency,
    {
      tableNames: [args.table],
      editor: caller.name,
      leaseSeconds: lease,
      rights: editorRights(caller),
      waitSeconds: args.wait,
      ...(args.rows != null
        ? { scope: { rows: args.rows, masterSchema: context.masterSchema } }
        : {}),
    },
    reviveGrants,
  );
  if (!grant) throw new Error(`${args.table} was not granted.`);
  return grant;
};

export const acquireTableLocksResolver: MutationResolvers['acquireTableLocks'] = (
  _parent,
  args,
  context,
) => {
  const caller = callerOf(context);
  const request = {
    tableNames: args.tables,
    editor: caller.name,
    leaseSeconds: leaseFor(args.leaseSeconds, context),
    rights: editorRights(caller),
  };
  const idempotency = idempotentRequest(caller, args, 'acquireTableLocks');
  if (!waits(args.wait)) {
    return runLockOperation(
      context.prisma,
      idempotency,
      (db) => acquireTableLocks(db, request),
      reviveGrants,
    );
  }
  return waitInLine(context, idempotency, { ...request, waitSeconds: args.wait }, reviveGrants);
};

export const renewTableLockResolver: MutationResolvers['renewTableLock'] = async (
  _parent,
  args,
  context,
) => {
  const caller = callerOf(context);
  const renewal = {
    tableName: args.table,
    editor: caller.name,
    token: parseFencingToken(args.token),
    leaseSeconds: leaseFor(args.leaseSeconds, context),
    active: args.active ?? true,
  };
  if (await isRowScopeToken(context.prisma, args.table, renewal.token)) {
    return renewRowScope(context.prisma, renewal);
  }
  return grantedOrConflict(
    await renewTableLock(context.prisma, { ...renewal, rights: editorRights(caller) }),
  );
};

export const releaseTableLockResolver: MutationResolvers['releaseTableLock'] = async (
  _parent,
  args,
  context,
) => {
  const caller = callerOf(context);
  const release = {
    tableName: args.table,
    editor: caller.name,
    token: parseFencingToken(args.token),
  };
  await runLockOperation(
    context.prisma,
    idempotentRequest(caller, args, 'releaseTableLock'),
    async (db) => {
      if (!(await isRowScopeToken(db, args.table, release.token))) {
        return releaseTableLock(db, release);
      }
      await releaseRowScope(db, release);
      return { granted: { tableName: args.table, editor: caller.name } };
    },
  );
  return tableInfo(context.prisma, args.table);
};

export const takeOverTableLockResolver: MutationResolvers['takeOverTableLock'] = (
  _parent,
  args,
  context,
) => {
  const caller = callerOf(context);
  const request = {
    tableName: args.table,
    editor: caller.name,
    reason: requiredReason(args.reason),
    leaseSeconds: leaseFor(args.leaseSeconds, context),
    rights: editorRights(caller),
  };
  const { rowLock } = args;
  return runLockOperation(
    context.prisma,
    idempotentRequest(caller, args, 'takeOverTableLock'),
    async (db) =>
      rowLock
        ? {
            granted: await takeOverRowScope(db, {
              ...request,
              token: rowLock,
              masterSchema: context.masterSchema,
            }),
          }
        : takeOverTableLock(db, request),
    reviveGrant,
  );
};

export const lockEvents: QueryResolvers['lockEvents'] = (_parent, args, context) => {
  return readLockEvents(context.prisma, args.filter ?? {}, {
    offset: args.offset ?? 0,
    limit: args.limit ?? 50,
    before: args.before ?? null,
    after: args.after ?? null,
  });
};

export const LockGrant: LockGrantResolvers = {
  table: (grant) => grant.tableName,
  token: (grant) => grant.fencingToken,
  rows: (grant) => grant.rows ?? null,
};
