/** A role as the request rules know it: the identity's role. */
export type RequestRole = 'viewer' | 'editor' | 'admin';

/** Who may approve a table's change requests, from its policy. */
export interface ApproverRules {
  /** Besides admins: these roles or members of these groups; both empty: every editor. */
  approverRoles: readonly RequestRole[];
  approverGroups: readonly string[];
}

/** Who acts on a request: a user, or an API key, perhaps in someone's name. */
export interface RequestActor {
  name: string;
  role: RequestRole;
  groups: readonly string[];
  /**
   * Everyone this actor stands for besides itself: the user an admin key acts for (the legacy
   * `editor` field), the admin who created the key. Nobody decides a request through them.
   */
  standsFor: readonly string[];
  /**
   * An API key no person made (the command line's): nobody answers for its decisions, and
   * nobody's own request can be told from another's through it. It decides no request.
   */
  standsForNobody: boolean;
}

/** The people behind an actor: itself and whoever it stands for. */
export function peopleBehind(actor: RequestActor): string[] {
  return [actor.name, ...actor.standsFor];
}

/** Whether any person behind `actor` is among `people`. */
export function sharesPeople(actor: RequestActor, people: readonly string[]): boolean {
  return peopleBehind(actor).some((person) => people.includes(person));
}

/**
 * Whether `actor` may decide (approve, reject, send back) another person's request under
 * `rules`. Viewers never; admins always; else a named role or group, or any editor when the
 * policy names none.
 */
export function mayDecide(rules: ApproverRules, actor: RequestActor): boolean {
  if (actor.role === 'viewer') return false;
  if (actor.role === 'admin') return true;
  if (rules.approverRoles.length === 0 && rules.approverGroups.length === 0) return true;
  return (
    rules.approverRoles.includes(actor.role) ||
    actor.groups.some((group) => rules.approverGroups.includes(group))
  );
}
