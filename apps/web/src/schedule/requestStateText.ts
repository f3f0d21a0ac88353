import type { TFunction } from 'i18next';
import type { ChangeRequestState } from '../generated/graphql';

/**
 * A request's state in words. One that took effect on a date was applied at its time, by
 * tablelock, approved or not: "Approved and applied" would say what may not have happened.
 */
export const requestStateText = (
  state: ChangeRequestState,
  effectiveAt: string | null | undefined,
  t: TFunction,
): string =>
  state === 'applied' && effectiveAt
    ? t('schedule.appliedAtItsTime')
    : t(`requests.states.${state}`);
