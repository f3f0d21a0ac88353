import { describe, expect, it } from 'vitest';
import type { ApproverRules, RequestActor } from '../../src/changeRequests/core/approverRules';
import type { ChangeRequestState } from '../../src/changeRequests/core/changeRequestState';
import { planRequestStep, type RequestFacts } from '../../src/changeRequests/core/planRequestStep';

const anyEditor: ApproverRules = { approverRoles: [], approverGroups: [] };
const finance: ApproverRules = { approverRoles: [], approverGroups: ['finance'] };

const person = (name: string, role: RequestActor['role'], groups: string[] = []) => ({
  name,
  role,
  groups,
  standsFor: [],
  standsForNobody: false,
});
const alice = person('alice', 'editor');
const bob = person('bob', 'editor');
const carol = person('carol', 'viewer');
const dave = person('dave', 'editor', ['finance']);
const admin = person('admin', 'admin');
/** An admin API key acting for alice (the legacy `editor` field), created by admin. */
const keyForAlice: RequestActor = {
  ...person('key:batch', 'admin'),
  standsFor: ['alice', 'admin'],
};

const pending = (author = 'alice', submitters = [author]): RequestFacts => ({
  state: 'pending',
  author,
  submitters,
});

describe('planRequestStep', () => {
  it('another editor approves, rejects or sends back a pending request', () => {
    expect(planRequestStep(pending(), { kind: 'approve', actor: bob }, anyEditor)).toEqual({
      allowed: true,
      next: 'applied',
    });
    expect(planRequestStep(pending(), { kind: 'reject', actor: bob }, anyEditor)).toMatchObject({
      next: 'rejected',
    });
    expect(planRequestStep(pending(), { kind: 'sendBack', actor: bob }, anyEditor)).toMatchObject({
      next: 'sentBack',
    });
  });

  it('nobody decides their own request, an admin or a key acting for the author included', () => {
    for (const kind of ['approve', 'reject', 'sendBack'] as const) {
      expect(planRequestStep(pending(), { kind, actor: alice }, anyEditor)).toMatchObject({
        allowed: false,
        code: 'FORBIDDEN',
      });
      expect(planRequestStep(pending(), { kind, actor: keyForAlice }, anyEditor)).toMatchObject({
        allowed: false,
        code: 'FORBIDDEN',
      });
    }
    expect(
      planRequestStep(pending('admin'), { kind: 'approve', actor: admin }, anyEditor),
    ).toMatchObject({ allowed: false, code: 'FORBIDDEN' });
    // The key submitted in alice's name: its creator, admin, is behind the submission too.
    const byKey = pending('alice', ['key:batch', 'alice', 'admin']);
    expect(planRequestStep(byKey, { kind: 'approve', actor: admin }, anyEditor)).toMatchObject({
      allowed: false,
    });
    expect(planRequestStep(byKey, { kind: 'approve', actor: bob }, anyEditor)).toMatchObject({
      allowed: true,
    });
  });

  it('a key no person made decides nothing, not even a request others submitted', () => {
    const cliKey: RequestActor = { ...person('key:nightly', 'admin'), standsFor: ['cli'] };
    const nobody = { ...cliKey, standsForNobody: true };
    for (const kind of ['approve', 'reject', 'sendBack'] as const) {
      expect(planRequestStep(pending(), { kind, actor: nobody }, anyEditor)).toMatchObject({
        allowed: false,
        code: 'FORBIDDEN',
      });
    }
    expect(planRequestStep(pending(), { kind: 'approve', actor: cliKey }, anyEditor)).toEqual({
      allowed: true,
      next: 'applied',
    });
  });

  it('viewers never approve; approver groups leave out other editors, not admins', () => {
    expect(planRequestStep(pending(), { kind: 'approve', actor: carol }, anyEditor)).toMatchObject({
      allowed: false,
      code: 'FORBIDDEN',
    });
    expect(planRequestStep(pending(), { kind: 'approve', actor: bob }, finance)).toMatchObject({
      allowed: false,
      code: 'FORBIDDEN',
    });
    expect(planRequestStep(pending(), { kind: 'approve', actor: dave }, finance)).toMatchObject({
      allowed: true,
    });
    expect(planRequestStep(pending(), { kind: 'approve', actor: admin }, finance)).toMatchObject({
      allowed: true,
    });
    const editorsOnly: ApproverRules = { approverRoles: ['admin'], approverGroups: [] };
    expect(planRequestStep(pending(), { kind: 'approve', actor: bob }, editorsOnly)).toMatchObject({
      allowed: false,
    });
  });

  it('only the author withdraws; a force release by an admin rejects', () => {
    expect(planRequestStep(pending(), { kind: 'withdraw', actor: alice }, anyEditor)).toMatchObject(
      {
        next: 'withdrawn',
      },
    );
    expect(planRequestStep(pending(), { kind: 'withdraw', actor: bob }, anyEditor)).toMatchObject({
      allowed: false,
      code: 'FORBIDDEN',
    });
    expect(
      planRequestStep(pending(), { kind: 'forceRelease', actor: admin }, anyEditor),
    ).toMatchObject({ next: 'rejected' });
    expect(
      planRequestStep(pending(), { kind: 'forceRelease', actor: bob }, anyEditor),
    ).toMatchObject({ allowed: false });
    expect(planRequestStep(pending(), { kind: 'rowsChanged' }, anyEditor)).toMatchObject({
      next: 'sentBack',
    });
  });

  it('a closed request moves no more: the second of two approvals is refused', () => {
    const closed: ChangeRequestState[] = ['applied', 'rejected', 'sentBack', 'withdrawn'];
    for (const state of closed) {
      expect(
        planRequestStep({ ...pending(), state }, { kind: 'approve', actor: bob }, anyEditor),
      ).toMatchObject({ allowed: false, code: 'CHANGE_REQUEST_CLOSED' });
      expect(
        planRequestStep({ ...pending(), state }, { kind: 'withdraw', actor: alice }, anyEditor),
      ).toMatchObject({ allowed: false, code: 'CHANGE_REQUEST_CLOSED' });
    }
  });
});
