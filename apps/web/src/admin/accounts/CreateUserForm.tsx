import './accounts.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { Role } from '../../generated/graphql';
import { usersOptions } from '../adminQueries';
import { createUserMutation } from './accountOperations';
import { RoleSelect } from './RoleSelect';
import { useAccountChange } from './useAccountChange';

/** A new user with a role and a first password that the admin passes on. */
export function CreateUserForm() {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const create = useAccountChange(
    (variables: { username: string; password: string; role: Role }) =>
      graphqlRequest(createUserMutation, variables),
    ({ createUser }) =>
      (t) =>
        t('users.created', { user: createUser.username }),
    usersOptions.queryKey,
  );
  return (
    <form
      className="account-form"
      aria-label={t('users.create')}
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          { username: username.trim(), password, role },
          {
            onSuccess: () => {
              setUsername('');
              setPassword('');
            },
          },
        );
      }}
    >
      <label className="field">
        <span>{t('users.columns.username')}</span>
        <input
          required
          autoComplete="off"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
      </label>
      <label className="field">
        <span>{t('users.firstPassword')}</span>
        <input
          required
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      <div className="field">
        <span>{t('users.columns.role')}</span>
        <RoleSelect label={t('users.roleOfNew')} value={role} onChange={setRole} />
      </div>
      <button type="submit" className="button primary" disabled={create.isPending}>
        {t('users.create')}
      </button>
    </form>
  );
}
