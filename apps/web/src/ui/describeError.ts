import type { TFunction } from 'i18next';
import { GraphqlRequestError } from '../api/GraphqlRequestError';

/** A sentence for the user about a failed request, in their language where the code is known. */
export function describeError(error: unknown, t: TFunction): string {
  if (!(error instanceof GraphqlRequestError)) return t('errors.unexpected');
  switch (error.code) {
    case 'NETWORK_ERROR':
      return t('errors.network');
    case 'UNAUTHENTICATED':
      return t('errors.unauthenticated');
    case 'FORBIDDEN':
      return t('errors.forbidden');
    case 'LOCK_LOST':
      return t('errors.lockLost');
    case 'INTERNAL_SERVER_ERROR':
      return t('errors.internal');
    default:
      // The API's own messages are precise (which table, which value); better than a vague one.
      return error.message;
  }
}
