/**
 * Where a change request is in its life. `pending` waits for an approver and carries the lock
 * (unless it has an effective time); `scheduled` waits for its effective time, without a lock;
 * the others are closed: `applied` (approved, or at its time, and written in one transaction),
 * `rejected` (by an approver, or by an admin's force release), `sentBack` (to its author, by an
 * approver or because a row changed since submission), `withdrawn` (by its author), `failed`
 * (at its time, nothing written: a row changed since, or the table stayed held).
 */
export type ChangeRequestState =
  | 'pending'
  | 'applied'
  | 'rejected'
  | 'sentBack'
  | 'withdrawn'
  | 'scheduled'
  | 'failed';

export const CHANGE_REQUEST_STATES: readonly ChangeRequestState[] = [
  'pending',
  'applied',
  'rejected',
  'sentBack',
  'withdrawn',
  'scheduled',
  'failed',
];
