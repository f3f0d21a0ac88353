import { MAX_IDLE_LIMIT_SECONDS, readIdleLimits } from '@tablelock/lock';
import type { ApiContext } from '../../context';
import { changeIdleLimit, type IdleLimitTarget } from '../../settings/changeIdleLimit';
import type { LockSettings, MutationResolvers, QueryResolvers } from '../generated/graphql';
import { callerOf } from './callerOf';
import { securityAudit } from './securityAudit';

async function lockSettingsOf(context: ApiContext): Promise<LockSettings> {
  const limits = await readIdleLimits(context.prisma);
  return {
    idleLimitSeconds: limits.globalSeconds,
    minIdleLimitSeconds: context.minIdleLimitSeconds,
    maxIdleLimitSeconds: MAX_IDLE_LIMIT_SECONDS,
    tables: [...limits.tables]
      .map(([table, idleLimitSeconds]) => ({ table, idleLimitSeconds }))
      .sort((a, b) => a.table.localeCompare(b.table)),
  };
}

async function changed(context: ApiContext, target: IdleLimitTarget): Promise<LockSettings> {
  const admin = callerOf(context);
  await changeIdleLimit(
    context.prisma,
    target,
    securityAudit(context, admin),
    context.minIdleLimitSeconds,
  );
  return lockSettingsOf(context);
}

export const lockSettings: QueryResolvers['lockSettings'] = (_parent, _args, context) => {
  return lockSettingsOf(context);
};

export const setIdleLimit: MutationResolvers['setIdleLimit'] = (_parent, { seconds }, context) =>
  changed(context, { seconds });

export const setTableIdleLimit: MutationResolvers['setTableIdleLimit'] = (
  _parent,
  { table, seconds },
  context,
) => changed(context, { table, seconds: seconds ?? null });
