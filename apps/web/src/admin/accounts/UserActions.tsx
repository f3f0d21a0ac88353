import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { Role } from '../../generated/graphql';
import { usersOptions } from '../adminQueries';
import { updateUserMutation } from './accountOperations';
import { RoleSelect } from './RoleSelect';
import { SetPasswordDialog } from './SetPasswordDialog';
import { useAccountChange } from './useAccountChange';

interface UserActionsProps {
  user: { username: string; role: Role; disabled: boolean };
  /** The admin's own row: no disabling or demoting oneself out of this page. */
  isSelf: boolean;
}

type Change = { role?: Role; password?: string; disabled?: boolean };

/** A user's role, disabling or enabling, and a new password. */
export function UserActions({ user, isSelf }: UserActionsProps) {
  const { t } = useTranslation();
  const [settingPassword, setSettingPassword] = useState(false);
  const update = useAccountChange(
    (change: Change) => graphqlRequest(updateUserMutation, { username: user.username, ...change }),
    (_result, change) => (t) => {
      if (change.password !== undefined) return t('users.passwordSet', { user: user.username });
      if (change.disabled !== undefined)
        return t(change.disabled ? 'users.wasDisabled' : 'users.wasEnabled', {
          user: user.username,
        });
      return t('users.roleChanged', {
        user: user.username,
        role: t(`roles.${change.role ?? user.role}`),
      });
    },
    usersOptions.queryKey,
  );
  return (
    <div className="row-actions">
      <RoleSelect
        label={t('users.roleOf', { user: user.username })}
        value={user.role}
        disabled={isSelf || update.isPending}
        onChange={(role) => update.mutate({ role })}
      />
      <button
        type="button"
        className="button small"
        disabled={update.isPending}
        onClick={() => setSettingPassword(true)}
      >
        {t('users.setPassword')}
      </button>
      {!isSelf && (
        <button
          type="button"
          className={`button small${user.disabled ? '' : ' danger'}`}
          disabled={update.isPending}
          onClick={() => update.mutate({ disabled: !user.disabled })}
        >
          {t(user.disabled ? 'users.enable' : 'users.disable')}
        </button>
      )}
      {settingPassword && (
        <SetPasswordDialog
          username={user.username}
          busy={update.isPending}
          onConfirm={(password) =>
            update.mutate({ password }, { onSuccess: () => setSettingPassword(false) })
          }
          onCancel={() => setSettingPassword(false)}
        />
      )}
    </div>
  );
}
