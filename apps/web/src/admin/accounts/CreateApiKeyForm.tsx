import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { Role } from '../../generated/graphql';
import { SecretShownOnce } from '../../ui/SecretShownOnce';
import { createApiKeyMutation } from './accountOperations';
import { apiKeysOptions } from './accountQueries';
import { RoleSelect } from './RoleSelect';
import { useAccountChange } from './useAccountChange';

/** A key for another system: a name and a role; its secret shown once. */
export function CreateApiKeyForm() {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const create = useAccountChange(
    (variables: { name: string; role: Role }) => graphqlRequest(createApiKeyMutation, variables),
    () => null,
    apiKeysOptions.queryKey,
  );
  if (created) {
    return (
      <SecretShownOnce
        title={t('apiKeys.createdTitle', { name: created.name })}
        explanation={t('apiKeys.shownOnce')}
        label={t('apiKeys.secret')}
        secret={created.secret}
        testId="api-key-secret"
        onDone={() => setCreated(null)}
      />
    );
  }
  return (
    <form
      className="account-form"
      aria-label={t('apiKeys.create')}
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          { name: name.trim(), role },
          {
            onSuccess: ({ createApiKey }) => {
              setName('');
              setCreated({ name: createApiKey.apiKey.name, secret: createApiKey.secret });
            },
          },
        );
      }}
    >
      <label className="field">
        <span>{t('apiKeys.name')}</span>
        <input
          required
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      <div className="field">
        <span>{t('users.columns.role')}</span>
        <RoleSelect label={t('apiKeys.roleOfNew')} value={role} onChange={setRole} />
      </div>
      <button type="submit" className="button primary" disabled={create.isPending}>
        {t('apiKeys.create')}
      </button>
    </form>
  );
}
