import { useTranslation } from 'react-i18next';
import type { TableStatus } from '../generated/graphql';

interface StatusBadgeProps {
  status: TableStatus;
  /** An admin froze the table: its Frozen badge (RuleBadges) is its state, not "Normal". */
  frozen?: boolean;
  mine?: boolean;
}

/** The lock state at a glance; the user's own editing stands out from other people's. */
export function StatusBadge({ status, frozen = false, mine = false }: StatusBadgeProps) {
  const { t } = useTranslation();
  if (frozen && status === 'normal') return null;
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
