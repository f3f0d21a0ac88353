import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';
import type { TableInfo } from './useTables';

/**
 * What admins decided for a table, at a glance: frozen (with the reason), read-only, and whether
 * its changes need another person's approval (before anyone starts editing it).
 */
export function RuleBadges({ table }: { table: Pick<TableInfo, 'frozen' | 'policy'> }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { frozen, policy } = table;
  const readOnly = policy.readOnly || !policy.takesPartInLocking;
  return (
    <>
      {frozen && (
        <span className="rule-badge rule-frozen" data-testid="frozen-badge">
          {t('rules.frozen')}
          <span className="rule-reason">
            {frozen.until
              ? t('rules.frozenUntil', {
                  reason: frozen.reason,
                  until: format.dateTime(frozen.until),
                })
              : frozen.reason}
          </span>
        </span>
      )}
      {readOnly && (
        <span className="rule-badge rule-read-only" data-testid="read-only-badge">
          {t('rules.readOnly')}
        </span>
      )}
      {policy.changesNeedApproval && !readOnly && (
        <span className="rule-badge rule-needs-approval" data-testid="needs-approval-badge">
          {t('fourEyes.badge')}
        </span>
      )}
    </>
  );
}
