import { useTranslation } from 'react-i18next';
import type { ChangeCounts } from './PendingChanges';

/** How much is unsaved, and whether it can be saved as it is. */
export function ChangeSummary({ counts, invalid }: { counts: ChangeCounts; invalid: number }) {
  const { t } = useTranslation();
  if (counts.total === 0) {
    return <span className="change-summary muted">{t('changes.none')}</span>;
  }
  const parts = [
    counts.inserts > 0 && t('changes.inserts', { count: counts.inserts }),
    counts.updates > 0 && t('changes.updates', { count: counts.updates }),
    counts.deletes > 0 && t('changes.deletes', { count: counts.deletes }),
  ].filter(Boolean);
  return (
    <span className="change-summary" data-testid="change-summary">
      <strong>{t('changes.unsaved', { count: counts.total })}</strong>
      <span className="muted">{parts.join(' · ')}</span>
      {invalid > 0 && (
        <span className="invalid-summary">{t('changes.invalid', { count: invalid })}</span>
      )}
    </span>
  );
}
