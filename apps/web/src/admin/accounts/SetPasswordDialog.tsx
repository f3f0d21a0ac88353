import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';

interface SetPasswordDialogProps {
  username: string;
  busy: boolean;
  onConfirm: (password: string) => void;
  onCancel: () => void;
}

/** The admin sets a user's new password (as `set-password` does); the user's sessions end. */
export function SetPasswordDialog({ username, busy, onConfirm, onCancel }: SetPasswordDialogProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  return (
    <Dialog
      open
      title={t('users.setPasswordOf', { user: username })}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button subtle" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            form="set-password"
            className="button primary"
            disabled={busy || password === ''}
          >
            {t('users.setPassword')}
          </button>
        </>
      }
    >
      <form
        id="set-password"
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm(password);
        }}
      >
        <p>{t('users.setPasswordHint')}</p>
        <label className="field">
          <span>{t('users.newPassword')}</span>
          <input
            required
            type="password"
            autoComplete="new-password"
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
      </form>
    </Dialog>
  );
}
