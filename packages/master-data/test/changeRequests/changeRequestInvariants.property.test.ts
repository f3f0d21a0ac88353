import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ApproverRules,
  peopleBehind,
  type RequestActor,
} from '../../src/changeRequests/core/approverRules';
import type { ChangeRequestState } from '../../src/changeRequests/core/changeRequestState';
import type { ChangeRequestStep } from '../../src/changeRequests/core/changeRequestStep';
import { planRequestStep } from '../../src/changeRequests/core/planRequestStep';

const ACTORS: RequestActor[] = [
  { name: 'alice', role: 'editor', groups: [], standsFor: [], standsForNobody: false },
  { name: 'bob', role: 'editor', groups: [], standsFor: [], standsForNobody: false },
  { name: 'dave', role: 'editor', groups: ['finance'], standsFor: [], standsForNobody: false },
  { name: 'carol', role: 'viewer', groups: ['finance'], standsFor: [], standsForNobody: false },
  { name: 'admin', role: 'admin', groups: [], standsFor: [], standsForNobody: false },
  // Admin keys: one of its own, one acting for alice; both created by admin.
  { name: 'key:batch', role: 'admin', groups: [], standsFor: ['admin'], standsForNobody: false },
  {
    name: 'key:forAlice',
    role: 'admin',
    groups: [],
    standsFor: ['alice', 'admin'],
    standsForNobody: false,
  },
  // An admin key the command line made: no person behind it.
  { name: 'key:nightly', role: 'admin', groups: [], standsFor: ['cli'], standsForNobody: true },
];

const actor = fc.constantFrom(...ACTORS);
const rules: fc.Arbitrary<ApproverRules> = fc.record({
  approverRoles: fc.subarray(['editor', 'admin'] as const),
  approverGroups: fc.subarray(['finance']),
});
const step: fc.Arbitrary<ChangeRequestStep> = fc.oneof(
  fc.record({ kind: fc.constantFrom('approve', 'reject', 'sendBack', 'withdraw'), actor }),
  fc.record({ kind: fc.constant('forceRelease'), actor }),
  fc.constant({ kind: 'rowsChanged' as const }),
);

/**
 * The small model: who is an approver of this request, said as plainly as possible. A viewer
 * never; a key no person made never; no person behind the submission; then admins, or the roles and groups named, or any
 * editor when none are.
 */
function modelMayDecide(
  who: RequestActor,
  submitters: readonly string[],
  { approverRoles, approverGroups }: ApproverRules,
): boolean {
  if (who.standsForNobody) return false;
  const people = [who.name, ...who.standsFor];
  if (people.some((person) => submitters.includes(person))) return false;
  if (who.role === 'viewer') return false;
  if (who.role === 'admin') return true;
  const named = approverRoles.length + approverGroups.length > 0;
  return (
    !named ||
    approverRoles.includes(who.role) ||
    who.groups.some((group) => approverGroups.includes(group))
  );
}

describe('change request invariants', () => {
  it('no path from submitted to applied without an approver other than the author', () => {
    fc.assert(
      fc.property(actor, rules, fc.array(step, { maxLength: 12 }), (submitter, policy, steps) => {
        // The submitter acts as the lock's editor: a key acting for alice submits as alice.
        const author = submitter.standsFor[0] === 'alice' ? 'alice' : submitter.name;
        const submitters = peopleBehind(submitter);
        let state: ChangeRequestState = 'pending';
        for (const next of steps) {
          const plan = planRequestStep({ state, author, submitters }, next, policy);
          if (!plan.allowed) continue;
          expect(state).toBe('pending');
          if (plan.next === 'applied') {
            expect(next.kind).toBe('approve');
            if (next.kind !== 'approve') return;
            expect(peopleBehind(next.actor)).not.toContain(author);
            expect(next.actor.role).not.toBe('viewer');
            expect(modelMayDecide(next.actor, [author, ...submitters], policy)).toBe(true);
          }
          state = plan.next;
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('every approval the model allows is allowed, and no other', () => {
    fc.assert(
      fc.property(actor, actor, rules, (submitter, approver, policy) => {
        const author = submitter.name;
        const submitters = peopleBehind(submitter);
        const plan = planRequestStep(
          { state: 'pending', author, submitters },
          { kind: 'approve', actor: approver },
          policy,
        );
        expect(plan.allowed).toBe(modelMayDecide(approver, submitters, policy));
      }),
      { numRuns: 1000 },
    );
  });
});
