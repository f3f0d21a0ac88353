import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SessionUser } from '../session/useSession';

export function UserMenu({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  return (
    <div className="user-menu">
      <span className="user-identity" data-testid="current-user">
        <span className="user-name">{user.name}</span>
        <span className={`role-badge role-${user.role}`}>{t(`roles.${user.role}`)}</span>
      </span>
      <Link to="/logout" className="button subtle">
        {t('layout.logout')}
      </Link>
    </div>
  );
}
