import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../session/useSession';
import { describeError } from '../ui/describeError';
import { LoadingState } from '../ui/LoadingState';
import { CreateUserForm } from './accounts/CreateUserForm';
import { UserActions } from './accounts/UserActions';
import { usersOptions } from './adminQueries';

/**
 * Every user with where its role came from: given here (by an admin or the command line) or
 * mapped from the OpenID provider's groups at the last sign-in, and which groups those were.
 */
export function UsersList() {
  const { t } = useTranslation();
  const users = useQuery(usersOptions);
  const { data: me } = useSession();
  if (users.isError) return <p className="banner banner-error">{describeError(users.error, t)}</p>;
  if (!users.data) return <LoadingState />;
  return (
    <section className="page-section" aria-label={t('users.title')}>
      <p className="muted">{t('users.subtitle')}</p>
      <CreateUserForm />
      <div className="card table-card">
        <table className="data-table" data-testid="users">
          <thead>
            <tr>
              <th scope="col">{t('users.columns.username')}</th>
              <th scope="col">{t('users.columns.role')}</th>
              <th scope="col">{t('users.columns.roleSource')}</th>
              <th scope="col">{t('users.columns.groups')}</th>
              <th scope="col">{t('users.columns.status')}</th>
              <th scope="col" className="actions-column">
                <span className="visually-hidden">{t('tables.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((user) => (
              <tr key={user.id} data-testid="user-row" data-username={user.username}>
                <td>{user.username}</td>
                <td>{t(`roles.${user.role}`)}</td>
                <td>{t(`users.roleSources.${user.roleSource}`)}</td>
                <td>{user.groups.join(', ')}</td>
                <td>
                  {[
                    user.breakGlass ? t('users.breakGlass') : null,
                    user.disabled ? t('users.disabled') : null,
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </td>
                <td className="actions-column">
                  <UserActions user={user} isSelf={user.username === me?.name} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
