import { useTranslation } from 'react-i18next';
import type { TableStatus } from '../generated/graphql';

/** The lock state at a glance; the user's own editing stands out from other people's. */
export function StatusBadge({ status, mine = false }: { status: TableStatus; mine?: boolean }) {
  const { t } = useTranslation();
  return (
    <span
      className={`status-badge status-${status}${mine ? ' status-mine' : ''}`}
      data-status={status}
    >
      <span className="status-dot" aria-hidden="true" />
      {mine ? t('status.editingByYou') : t(`status.${status}`)}
    </span>
  );
}
