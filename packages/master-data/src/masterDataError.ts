import { DomainError } from '@tablelock/errors';

export type MasterDataErrorCode = 'BAD_USER_INPUT' | 'TABLE_NOT_FOUND' | 'LOCK_LOST';

export class MasterDataError extends DomainError<MasterDataErrorCode> {}
