import type { TFunction } from 'i18next';
import { GraphqlRequestError } from '../api/GraphqlRequestError';
import { describeError } from '../ui/describeError';

/**
 * Why a time for a change was refused, in the user's words (the latest time allowed written
 * by `formatTime`); any other error as usual.
 */
export function effectiveAtErrorText(
  error: unknown,
  t: TFunction,
  formatTime: (iso: string) => string,
): string {
  const extensions = error instanceof GraphqlRequestError ? error.extensions : undefined;
  if (extensions?.code === 'BAD_USER_INPUT' && extensions.effectiveAt === 'past') {
    return t('schedule.errors.past');
  }
  if (extensions?.code === 'BAD_USER_INPUT' && extensions.effectiveAt === 'tooFar') {
    return t('schedule.errors.tooFar', {
      latest: extensions.latest ? formatTime(extensions.latest) : '',
    });
  }
  return describeError(error, t);
}
