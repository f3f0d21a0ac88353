import type { IdempotentRequest } from '@tablelock/idempotency';
import type { Principal } from '@tablelock/identity';

/** The idempotency scope of a mutation call, if the caller sent a key; the key itself is not input. */
export function idempotentRequest(
  caller: Principal,
  args: { idempotencyKey?: string | null } & Record<string, unknown>,
  operation: string,
): IdempotentRequest | null {
  const { idempotencyKey, ...input } = args;
  if (idempotencyKey == null) return null;
  return { principal: caller.name, key: idempotencyKey, operation, input };
}
