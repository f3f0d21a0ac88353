import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

/** The two sides of change requests: those the user decides, and their own. */
export function RequestsTabs() {
  const { t } = useTranslation();
  return (
    <nav className="requests-tabs" aria-label={t('fourEyes.tabs.label')}>
      <NavLink to="/requests" end>
        {t('fourEyes.tabs.toDecide')}
      </NavLink>
      <NavLink to="/requests/mine">{t('fourEyes.tabs.mine')}</NavLink>
    </nav>
  );
}
