import {
  type FreezeRule,
  freezeTables,
  LockError,
  readTablePolicies,
  readTakeOverSettings,
  type TableSelection,
  thawTables,
} from '@tablelock/lock';
import { changeTablePolicy, changeTakeOverRule } from '../../governance/auditedSettings';
import { installWriteGuards } from '../../writeGuard/installWriteGuards';
import type { MutationResolvers, QueryResolvers, TablePolicyResolvers } from '../generated/graphql';
import { callerOf } from './callerOf';
import { requiredReason } from './requiredReason';
import { securityAudit } from './securityAudit';

export const tablePolicies: QueryResolvers['tablePolicies'] = (_parent, _args, context) => {
  return readTablePolicies(context.prisma);
};

export const takeOverSettings: QueryResolvers['takeOverSettings'] = (_parent, _args, context) => {
  return readTakeOverSettings(context.prisma);
};

export const setTablePolicyResolver: MutationResolvers['setTablePolicy'] = async (
  _parent,
  args,
  context,
) => {
  const admin = callerOf(context);
  const {
    readOnly,
    editRoles,
    editGroups,
    takesPartInLocking,
    maxLeaseSeconds,
    writeGuard,
    labelColumn,
    rowLockColumn,
    changesNeedApproval,
    approverRoles,
    approverGroups,
  } = args.policy;
  // GraphQL's null for a Boolean or list means "not given"; for maxLeaseSeconds, "no cap"; for
  // labelColumn, "the first text column"; for rowLockColumn, "the primary key".
  const change = {
    ...(readOnly != null ? { readOnly } : {}),
    ...(editRoles != null ? { editRoles } : {}),
    ...(editGroups != null ? { editGroups } : {}),
    ...(takesPartInLocking != null ? { takesPartInLocking } : {}),
    ...(maxLeaseSeconds !== undefined ? { maxLeaseSeconds } : {}),
    ...(writeGuard != null ? { writeGuard } : {}),
    ...(labelColumn !== undefined ? { labelColumn } : {}),
    ...(rowLockColumn !== undefined ? { rowLockColumn } : {}),
    ...(changesNeedApproval != null ? { changesNeedApproval } : {}),
    ...(approverRoles != null ? { approverRoles } : {}),
    ...(approverGroups != null ? { approverGroups } : {}),
  };
  const policy = await changeTablePolicy(
    context.prisma,
    {
      tableName: args.table,
      change,
      writeGuardDefault: context.writeGuardDefault,
      masterSchema: context.masterSchema,
    },
    securityAudit(context, admin),
  );
  await installWriteGuards(context.prisma, context, context.logger);
  return policy;
};

export const freezeTablesResolver: MutationResolvers['freezeTables'] = async (
  _parent,
  args,
  context,
) => {
  const admin = callerOf(context);
  const outcome = await freezeTables(context.prisma, {
    ...selection(args),
    reason: requiredReason(args.reason),
    until: args.until ?? null,
    rule: args.rule satisfies FreezeRule,
    actor: admin.name,
  });
  context.logger.warn(
    { admin: admin.name, tables: outcome.frozen, rule: args.rule, until: args.until },
    'tables frozen',
  );
  return { tables: outcome.frozen, endedLocks: outcome.endedLocks };
};

export const thawTablesResolver: MutationResolvers['thawTables'] = async (
  _parent,
  args,
  context,
) => {
  const admin = callerOf(context);
  const thawed = await thawTables(context.prisma, {
    ...selection(args),
    actor: admin.name,
    reason: args.reason ?? null,
  });
  context.logger.info({ admin: admin.name, tables: thawed }, 'tables thawed');
  return { tables: thawed, endedLocks: [] };
};

export const setTakeOverRuleResolver: MutationResolvers['setTakeOverRule'] = (
  _parent,
  args,
  context,
) => {
  const admin = callerOf(context);
  return changeTakeOverRule(
    context.prisma,
    { rule: args.rule, idleMinutes: args.idleMinutes ?? null },
    securityAudit(context, admin),
  );
};

export const TablePolicy: TablePolicyResolvers = {
  table: (policy) => policy.tableName,
};

/** `tables`, or `all: true`: one of them, never both. */
function selection(args: { tables?: string[] | null; all?: boolean | null }): TableSelection {
  if (args.all === true && args.tables == null) return { all: true };
  if (args.all !== true && args.tables != null) return { tableNames: args.tables };
  throw new LockError('BAD_USER_INPUT', 'Name the tables, or all: true (not both).');
}
