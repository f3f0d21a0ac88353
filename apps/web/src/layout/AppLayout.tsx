import './narrowScreens.css';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { LanguageSwitch } from '../i18n/LanguageSwitch';
import { RequestArrivalNotices } from '../requests/RequestArrivalNotices';
import { RequestDecisionNotices } from '../requests/RequestDecisionNotices';
import { RequestsNavLink } from '../requests/RequestsNavLink';
import { roleAtLeast } from '../session/roles';
import { useSession } from '../session/useSession';
import { NoticeArea } from '../ui/Notices';
import { AdminMenu } from './AdminMenu';
import { LiveIndicator } from './LiveIndicator';
import { UserMenu } from './UserMenu';
import { useConnectionNoticesReset } from './useConnectionNoticesReset';

/** The frame of every signed-in page: where am I, who am I, and the page itself. */
export function AppLayout() {
  const { t } = useTranslation();
  const { data: user } = useSession();
  useConnectionNoticesReset();
  if (!user) return null;
  return (
    <div className="app">
      <header className="app-header">
        <NavLink to="/tables" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          tablelock
        </NavLink>
        <nav className="app-nav" aria-label={t('layout.navigation')}>
          <NavLink to="/tables">{t('layout.tables')}</NavLink>
          {roleAtLeast(user.role, 'editor') && <RequestsNavLink />}
          <NavLink to="/calendar">{t('layout.calendar')}</NavLink>
          {roleAtLeast(user.role, 'admin') && <AdminMenu />}
        </nav>
        <div className="header-end">
          <LiveIndicator />
          <LanguageSwitch />
          <UserMenu user={user} />
        </div>
      </header>
      <NoticeArea />
      {roleAtLeast(user.role, 'editor') && (
        <>
          <RequestArrivalNotices />
          <RequestDecisionNotices author={user.name} />
        </>
      )}
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
