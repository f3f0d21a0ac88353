import type { RequestActor } from './approverRules';

/**
 * What someone does to a pending request. `approve` applies it; `rowsChanged` is the system's
 * answer to an approval that found a row changed since submission; `forceRelease` is an admin
 * ending the lock the request carries.
 */
export type ChangeRequestStep =
  | { kind: 'approve'; actor: RequestActor }
  | { kind: 'reject'; actor: RequestActor }
  | { kind: 'sendBack'; actor: RequestActor }
  | { kind: 'withdraw'; actor: RequestActor }
  | { kind: 'rowsChanged' }
  | { kind: 'forceRelease'; actor: RequestActor };
