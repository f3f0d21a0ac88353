import { useTranslation } from 'react-i18next';
import type { SecurityEventsQuery } from '../generated/graphql';
import { idleLimitText } from '../i18n/idleLimitText';
import { useFormatters } from '../i18n/useFormatters';
import { securityEventsOptions } from './adminQueries';
import { HistorySection } from './HistorySection';
import { SECURITY_ACTIONS, toSecurityEventFilter } from './historyFilters';
import { useHistoryPage } from './useHistoryPage';

type SecurityEvent = SecurityEventsQuery['securityEvents']['events'][number];

// Security events are not announced live (only lock changes are): the list polls while shown,
// and refreshes when the window regains focus.
const REFRESH_MS = 15_000;

/**
 * The security audit: sign-ins, failed sign-ins, sign-outs and every change of users and API
 * keys, newest first, filtered and paged on the server.
 */
export function SecurityEvents() {
  const { t } = useTranslation();
  const format = useFormatters();
  const history = useHistoryPage({
    pageQuery: securityEventsOptions,
    actions: SECURITY_ACTIONS,
    toFilter: toSecurityEventFilter,
    refetchInterval: REFRESH_MS,
  });
  const actorName = (actor: string | null) => {
    if (actor === null) return <span className="muted">{t('securityEvents.anonymous')}</span>;
    if (actor === 'system') return t('securityEvents.system');
    if (actor === 'cli') return t('securityEvents.cli');
    if (actor === 'oidc') return t('securityEvents.oidc');
    return actor;
  };
  const details = (event: SecurityEvent) => {
    const via = [
      event.signInMethod === 'oidc' ? t('securityEvents.viaOidc') : null,
      event.groups ? t('securityEvents.groups', { groups: event.groups.join(', ') || '—' }) : null,
      event.failureDetail,
    ].filter(Boolean);
    const what = describe(event);
    return [what, ...via].filter(Boolean).join(' · ') || null;
  };
  const describe = (event: SecurityEvent) => {
    if (event.loginFailure) return t(`loginFailures.${event.loginFailure}`);
    if (event.role && event.previousRole) {
      return t('securityEvents.roleChange', {
        from: t(`roles.${event.previousRole}`),
        to: t(`roles.${event.role}`),
      });
    }
    if (event.role) return t('securityEvents.role', { role: t(`roles.${event.role}`) });
    if (event.action === 'lock_settings_changed') {
      const limit = (seconds: number | null) =>
        seconds === null ? t('idleLimits.followsGlobal') : idleLimitText(seconds, t);
      return t('securityEvents.idleLimitChange', {
        from: limit(event.previousIdleLimitSeconds ?? null),
        to: limit(event.idleLimitSeconds ?? null),
      });
    }
    return null;
  };

  return (
    <HistorySection
      title={t('securityEvents.title')}
      subtitle={t('securityEvents.subtitle')}
      history={history}
      filterBar={{
        actions: SECURITY_ACTIONS,
        actionLabel: (action) => t(`securityActions.${action}`),
        userPlaceholder: t('securityEvents.userPlaceholder'),
      }}
    >
      <table className="data-table history-table" data-testid="security-events">
        <thead>
          <tr>
            <th scope="col">{t('securityEvents.columns.at')}</th>
            <th scope="col">{t('securityEvents.columns.action')}</th>
            <th scope="col">{t('securityEvents.columns.actor')}</th>
            <th scope="col">{t('securityEvents.columns.subject')}</th>
            <th scope="col">{t('securityEvents.columns.ip')}</th>
            <th scope="col">{t('securityEvents.columns.details')}</th>
          </tr>
        </thead>
        <tbody>
          {history.query.data?.events.map((event) => (
            <tr key={event.id} data-testid="security-event-row" data-action={event.action}>
              <td className="nowrap">
                <time dateTime={event.at}>{format.dateTimeSeconds(event.at)}</time>
              </td>
              <td>
                <span className={`action-badge action-${event.action}`}>
                  {t(`securityActions.${event.action}`)}
                </span>
              </td>
              <td>{actorName(event.actor)}</td>
              <td>{event.subject}</td>
              <td className="address">{event.ip}</td>
              <td>{details(event)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </HistorySection>
  );
}
