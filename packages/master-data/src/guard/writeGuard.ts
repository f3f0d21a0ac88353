import { WriteGuard } from '@tablelock/db';
import { GUARD_TRIGGERS } from '@tablelock/lock';

export { GUARD_TRIGGERS, WriteGuard };

/** What the triggers on a master table may do with a write without a valid fencing token. */
export const WRITE_GUARDS: readonly WriteGuard[] = Object.values(WriteGuard);
