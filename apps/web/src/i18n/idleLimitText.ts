import type { TFunction } from 'i18next';

/** An idle limit in the user's language: whole minutes, else seconds. */
export function idleLimitText(seconds: number, t: TFunction): string {
  return seconds % 60 === 0
    ? t('idleLimits.minutes', { count: seconds / 60 })
    : t('idleLimits.seconds', { count: seconds });
}
