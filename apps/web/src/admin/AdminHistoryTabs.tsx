import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

/** The Locks page's histories, one at a time; each has its own address. */
export function AdminHistoryTabs() {
  const { t } = useTranslation();
  return (
    <nav className="tabs" aria-label={t('admin.histories')}>
      <NavLink to="/admin" end>
        {t('history.title')}
      </NavLink>
      <NavLink to="/admin/security">{t('securityEvents.title')}</NavLink>
    </nav>
  );
}
