import { useTranslation } from 'react-i18next';
import type { ChangeKind } from './historyTypes';

export function ChangeKindBadge({ kind }: { kind: ChangeKind }) {
  const { t } = useTranslation();
  return (
    <span className={`action-badge change-kind-${kind}`} data-testid="change-kind">
      {t(`changeHistory.kinds.${kind}`)}
    </span>
  );
}
