import type { TFunction } from 'i18next';
import type { Formatters } from '../../i18n/useFormatters';
import type { ScheduledChange } from './scheduledMarks';

/** A marked cell's tooltip: each request that changes it, when, old → new. */
export function scheduledCellText(
  changes: readonly ScheduledChange[],
  format: Formatters,
  t: TFunction,
): string {
  const shown = (value: string | null | undefined) => value ?? t('asOf.nullValue');
  return changes
    .map((change) =>
      t('asOf.scheduledCell', {
        request: change.changeRequestId,
        time: format.dateTime(change.effectiveAt),
        old: shown(change.oldValue),
        new: shown(change.newValue),
      }),
    )
    .join('\n');
}
