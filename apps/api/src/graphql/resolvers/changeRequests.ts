import { DomainError } from '@tablelock/errors';
import {
  type ChangeRequestRecord,
  checkChangeRequest,
  decideChangeRequest,
  mayDecideRequest,
  moveChangeRequest,
  type RequestDecision,
  readChangeRequest,
  readChangeRequests,
  readRequestsToDecide,
  submitChangeRequest,
} from '@tablelock/master-data';
import { requestActorOf } from '../../changeRequests/requestActor';
import type { ApiContext } from '../../context';
import type {
  ChangeRequestResolvers,
  MutationResolvers,
  QueryResolvers,
} from '../generated/graphql';
import { callerOf } from './callerOf';

const DEFAULT_PAGE = 20;

export const changeRequests: QueryResolvers['changeRequests'] = async (_parent, args, context) => {
  const filter = args.filter ?? {};
  if (filter.toDecide) {
    const actor = await requestActorOf(context.prisma, callerOf(context));
    const queue = await readRequestsToDecide(context.prisma, actor);
    return {
      requests: queue.filter((request) => !filter.table || request.tableName === filter.table),
      endCursor: null,
    };
  }
  return readChangeRequests(context.prisma, {
    filter: {
      tableName: filter.table,
      states: filter.states,
      author: filter.author,
      scheduled: filter.scheduled,
    },
    after: args.after ?? null,
    first: args.first ?? DEFAULT_PAGE,
  });
};

export const changeRequest: QueryResolvers['changeRequest'] = (_parent, args, context) =>
  readChangeRequest(context.prisma, args.id);

export const changeRequestsToDecide: QueryResolvers['changeRequestsToDecide'] = async (
  _parent,
  _args,
  context,
) => {
  const actor = await requestActorOf(context.prisma, callerOf(context));
  return (await readRequestsToDecide(context.prisma, actor)).length;
};

export const submitChangeRequestResolver: MutationResolvers['submitChangeRequest'] = async (
  _parent,
  args,
  context,
) => {
  const caller = callerOf(context);
  const actor = await requestActorOf(context.prisma, caller);
  return submitChangeRequest(context.prisma, {
    schema: context.masterSchema,
    tableName: args.table,
    author: caller.name,
    token: args.token,
    changes: args.changes ?? null,
    importDryRunId: args.importDryRunId ?? null,
    comment: args.comment ?? null,
    keepEditing: args.keepEditing ?? false,
    submittedBy: caller.name,
    submitters: actor.standsFor.slice(),
    effectiveAt: args.effectiveAt ?? null,
    editionId: args.editionId ?? null,
  });
};

export const moveChangeRequestResolver: MutationResolvers['moveChangeRequest'] = async (
  _parent,
  args,
  context,
) =>
  moveChangeRequest(context.prisma, {
    id: args.id,
    effectiveAt: args.effectiveAt,
    actor: await requestActorOf(context.prisma, callerOf(context)),
  });

function decision(kind: RequestDecision) {
  return async (
    _parent: unknown,
    args: { id: string; comment?: string | null },
    context: ApiContext,
  ): Promise<ChangeRequestRecord> => {
    const actor = await requestActorOf(context.prisma, callerOf(context));
    return decideChangeRequest(context.prisma, {
      schema: context.masterSchema,
      id: args.id,
      decision: kind,
      actor,
      comment: args.comment ?? null,
    });
  };
}

export const approveChangeRequestResolver: MutationResolvers['approveChangeRequest'] =
  decision('approve');
export const rejectChangeRequestResolver: MutationResolvers['rejectChangeRequest'] =
  decision('reject');
export const sendBackChangeRequestResolver: MutationResolvers['sendBackChangeRequest'] =
  decision('sendBack');
export const withdrawChangeRequestResolver: MutationResolvers['withdrawChangeRequest'] =
  decision('withdraw');

/** States in which the lock is the author's again, under the request's token. */
const HANDED_BACK = new Set(['sentBack', 'withdrawn']);

export const ChangeRequest: ChangeRequestResolvers = {
  table: (request) => request.tableName,
  token: (request, _args, context) => {
    const handedBack =
      HANDED_BACK.has(request.state) || (request.state === 'applied' && request.keepEditing);
    return handedBack && context.principal?.name === request.author ? request.token : null;
  },
  canDecide: async (request, _args, context) =>
    mayDecideRequest(
      context.prisma,
      request,
      await requestActorOf(context.prisma, callerOf(context)),
    ),
  check: (request, _args, context, info) => {
    // A check is a trial save: asked for in a list or on every live step, one query would
    // run a hundred of them.
    const field = info.path.prev;
    if (field?.typename !== 'Query' || field.prev !== undefined) {
      throw new DomainError(
        'BAD_USER_INPUT',
        "A change request's check is read one request at a time: changeRequest(id) { check }.",
      );
    }
    return checkChangeRequest(context.prisma, context.masterSchema, request);
  },
};
