import type { IdempotencyErrorCode } from '@tablelock/idempotency';
import type { IdentityErrorCode } from '@tablelock/identity';
import type { LockErrorCode } from '@tablelock/lock';
import type { MasterDataErrorCode } from '@tablelock/master-data';
import type { ErrorCode } from './generated/graphql';

/**
 * Every code the domain packages refuse with is listed in the SDL's ErrorCode (clients read the
 * list there): a new code fails the type check here until it is documented.
 */
type Documented<Code extends ErrorCode> = Code;
export type DomainErrorCode = Documented<
  LockErrorCode | IdentityErrorCode | MasterDataErrorCode | IdempotencyErrorCode
>;
