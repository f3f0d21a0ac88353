/**
 * Where a change request is in its life. `pending` waits for an approver and carries the lock;
 * the others are closed: `applied` (approved and written in one transaction), `rejected` (by
 * an approver, or by an admin's force release), `sentBack` (to its author, by an approver or
 * because a row changed since submission), `withdrawn` (by its author).
 */
export type ChangeRequestState = 'pending' | 'applied' | 'rejected' | 'sentBack' | 'withdrawn';

export const CHANGE_REQUEST_STATES: readonly ChangeRequestState[] = [
  'pending',
  'applied',
  'rejected',
  'sentBack',
  'withdrawn',
];
