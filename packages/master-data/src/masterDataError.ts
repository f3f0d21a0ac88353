import { DomainError } from '@tablelock/errors';

export type MasterDataErrorCode =
  | 'BAD_USER_INPUT'
  | 'TABLE_NOT_FOUND'
  | 'LOCK_LOST'
  | 'NOT_FOUND'
  | 'IMPORT_TOO_LARGE'
  | 'IMPORT_BAD_FILE'
  | 'IMPORT_NO_PRIMARY_KEY'
  | 'IMPORT_HAS_ERRORS'
  | 'IMPORT_ROWS_CHANGED'
  | 'IMPORT_REJECTED'
  | 'FORBIDDEN'
  | 'APPROVAL_REQUIRED'
  | 'CHANGE_REQUEST_CLOSED'
  | 'CHANGE_REQUEST_ROWS_CHANGED';

export class MasterDataError extends DomainError<MasterDataErrorCode> {}
