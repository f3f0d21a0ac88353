/**
 * The lock core's SQL, for those who run it by other means than the operations (the benchmark's
 * raw-`pg` floor): the scope read and the one conditional write, and the rows they speak of.
 */

export type { LockRow, LockRowChange } from '../core/lockRow';
export { compareAndSetQuery } from './compareAndSet';
export { lockScopeQuery } from './lockScope';
