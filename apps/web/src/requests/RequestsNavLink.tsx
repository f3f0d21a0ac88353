import './requests.css';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { requestsToDecideOptions } from './changeRequestQueries';

/** The header's way to the approval queue, with how many requests wait for the user. */
export function RequestsNavLink() {
  const { t } = useTranslation();
  const count = useQuery(requestsToDecideOptions).data ?? 0;
  return (
    <NavLink to="/requests">
      {t('requests.nav')}
      {count > 0 && (
        <span className="count-badge" data-testid="requests-count">
          <span className="visually-hidden">{t('requests.waiting', { count })}</span>
          <span aria-hidden="true">{count}</span>
        </span>
      )}
    </NavLink>
  );
}
