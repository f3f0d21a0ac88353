import { type ApproverRules, mayDecide, type RequestActor, sharesPeople } from './approverRules';
import type { ChangeRequestState } from './changeRequestState';
import type { ChangeRequestStep } from './changeRequestStep';

/** The request as a step is decided on: its state and the people behind its submission. */
export interface RequestFacts {
  state: ChangeRequestState;
  /** The lock's editor, who authored the changes. */
  author: string;
  /** The people behind the submission (peopleBehind of its submitter): the author among them. */
  submitters: readonly string[];
  /** When it takes effect: its approval schedules it instead of applying it. None: at once. */
  effectiveAt?: Date | null;
}

export type RequestRefusalCode = 'FORBIDDEN' | 'CHANGE_REQUEST_CLOSED';

export type RequestPlan =
  | { allowed: true; next: ChangeRequestState }
  | { allowed: false; code: RequestRefusalCode; message: string };

const NEXT: Record<ChangeRequestStep['kind'], ChangeRequestState> = {
  approve: 'applied',
  reject: 'rejected',
  sendBack: 'sentBack',
  withdraw: 'withdrawn',
  rowsChanged: 'sentBack',
  forceRelease: 'rejected',
};

// What may still happen to a scheduled request before its time: its author takes it back, or
// an approver refuses it.
const BEFORE_ITS_TIME: ReadonlySet<ChangeRequestStep['kind']> = new Set(['withdraw', 'reject']);

/**
 * Decides one step on a request: the state it leads to, or why not. Only a pending request
 * moves, and a scheduled one before its time (withdrawn or rejected). The author withdraws;
 * approvers (mayDecide) approve, reject or send back, never a request of their own, whoever
 * they act for, and never through a key no person made; an admin's force release rejects it.
 * Approving a request with an effective time schedules it: it is applied at that time.
 */
export function planRequestStep(
  request: RequestFacts,
  step: ChangeRequestStep,
  rules: ApproverRules,
): RequestPlan {
  const open =
    request.state === 'pending' ||
    (request.state === 'scheduled' && BEFORE_ITS_TIME.has(step.kind));
  if (!open) {
    return refuse(
      'CHANGE_REQUEST_CLOSED',
      `This change request is ${request.state}, no longer pending.`,
    );
  }
  const next = step.kind === 'approve' && request.effectiveAt ? 'scheduled' : NEXT[step.kind];
  switch (step.kind) {
    case 'rowsChanged':
      return { allowed: true, next };
    case 'withdraw':
      return sharesPeople(step.actor, [request.author])
        ? { allowed: true, next }
        : refuse('FORBIDDEN', 'Only its author withdraws a change request.');
    case 'forceRelease':
      return step.actor.role === 'admin'
        ? { allowed: true, next }
        : refuse('FORBIDDEN', 'Only an admin force-releases a lock.');
    default:
      return decision(request, step.actor, rules, next);
  }
}

function decision(
  request: RequestFacts,
  actor: RequestActor,
  rules: ApproverRules,
  next: ChangeRequestState,
): RequestPlan {
  if (actor.standsForNobody) {
    return refuse(
      'FORBIDDEN',
      'This API key was made by no person (create-api-key on the command line): it decides no ' +
        'change request. Decide in person, or with a key an admin made.',
    );
  }
  if (sharesPeople(actor, [request.author, ...request.submitters])) {
    return refuse('FORBIDDEN', 'Nobody decides their own change request: another person must.');
  }
  if (!mayDecide(rules, actor)) {
    return refuse('FORBIDDEN', "You are not among this table's approvers.");
  }
  return { allowed: true, next };
}

const refuse = (code: RequestRefusalCode, message: string): RequestPlan => ({
  allowed: false,
  code,
  message,
});
