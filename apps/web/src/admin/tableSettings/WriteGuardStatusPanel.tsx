import { useTranslation } from 'react-i18next';
import type { TableSettingsQuery } from '../../generated/graphql';
import { useFormatters } from '../../i18n/useFormatters';

/** The tables the write guard could not guard, with the statement that fixes each, and the history's size. */
export function WriteGuardStatusPanel({
  status,
}: {
  status: TableSettingsQuery['writeGuardStatus'];
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <section className="panel" aria-labelledby="write-guard-heading">
      <h2 id="write-guard-heading">{t('tableSettings.writeGuard')}</h2>
      <p>
        {t('tableSettings.historySize', {
          size: format.bytes(status.historyBytes),
          count: status.unlockedWrites,
        })}
      </p>
      {status.unguardedTables.length === 0 ? (
        <p className="muted">{t('tableSettings.allGuarded')}</p>
      ) : (
        <>
          <p className="banner banner-error">
            {t('tableSettings.unguarded', { count: status.unguardedTables.length })}
          </p>
          <ul data-testid="unguarded-tables">
            {status.unguardedTables.map((table) => (
              <li key={table.table}>
                {t('tableSettings.unguardedTable', {
                  table: table.table,
                  guard: t(`tableSettings.writeGuards.${table.wanted}`),
                })}{' '}
                <code>{table.grant}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
