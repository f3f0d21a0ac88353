import type { SecurityAudit } from '@tablelock/identity';

/** Users and keys a test sets up straight through the identity functions: recorded as `test`'s, logged nowhere. */
export const TEST_AUDIT: SecurityAudit = {
  actor: 'test',
  ip: null,
  logger: { info: () => {}, warn: () => {} },
};
