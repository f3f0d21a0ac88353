import './accounts.css';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import { useFormatters } from '../../i18n/useFormatters';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { describeError } from '../../ui/describeError';
import { LoadingState } from '../../ui/LoadingState';
import { revokeApiKeyMutation } from './accountOperations';
import { apiKeysOptions } from './accountQueries';
import { CreateApiKeyForm } from './CreateApiKeyForm';
import { useAccountChange } from './useAccountChange';

/** Other systems' API keys (never their secrets): create one, revoke one. */
export function ApiKeysList() {
  const { t } = useTranslation();
  const format = useFormatters();
  const keys = useQuery(apiKeysOptions);
  const [revoking, setRevoking] = useState<string | null>(null);
  const revoke = useAccountChange(
    (name: string) => graphqlRequest(revokeApiKeyMutation, { name }),
    (_result, name) => (t) => t('apiKeys.revoked', { name }),
    apiKeysOptions.queryKey,
  );
  if (keys.isError) return <p className="banner banner-error">{describeError(keys.error, t)}</p>;
  if (!keys.data) return <LoadingState />;
  return (
    <section className="page-section" aria-label={t('apiKeys.title')}>
      <p className="muted">{t('apiKeys.subtitle')}</p>
      <CreateApiKeyForm />
      <div className="card table-card">
        <table className="data-table" data-testid="api-keys">
          <thead>
            <tr>
              <th scope="col">{t('apiKeys.name')}</th>
              <th scope="col">{t('users.columns.role')}</th>
              <th scope="col">{t('apiKeys.createdBy')}</th>
              <th scope="col">{t('apiKeys.lastUsed')}</th>
              <th scope="col">{t('users.columns.status')}</th>
              <th scope="col" className="actions-column">
                <span className="visually-hidden">{t('tables.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id} data-testid="api-key-row" data-name={key.name}>
                <th scope="row" className="address">
                  {key.name}
                </th>
                <td>{t(`roles.${key.role}`)}</td>
                <td>
                  {key.createdBy ?? ''}
                  <span className="muted"> · {format.dateTime(key.createdAt)}</span>
                </td>
                <td>{key.lastUsedAt ? format.dateTime(key.lastUsedAt) : t('apiKeys.neverUsed')}</td>
                <td>
                  {key.revokedAt
                    ? t('apiKeys.revokedAt', { at: format.dateTime(key.revokedAt) })
                    : t('apiKeys.active')}
                </td>
                <td className="actions-column">
                  {!key.revokedAt && (
                    <button
                      type="button"
                      className="button danger small"
                      onClick={() => setRevoking(key.name)}
                    >
                      {t('apiKeys.revoke')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {keys.data.length === 0 && <p className="empty-state">{t('apiKeys.none')}</p>}
      </div>
      <ConfirmDialog
        open={revoking !== null}
        title={t('apiKeys.revokeTitle', { name: revoking ?? '' })}
        confirmLabel={t('apiKeys.revoke')}
        tone="danger"
        busy={revoke.isPending}
        onConfirm={() =>
          revoking && revoke.mutate(revoking, { onSettled: () => setRevoking(null) })
        }
        onCancel={() => setRevoking(null)}
      >
        <p>{t('apiKeys.revokeWarning')}</p>
      </ConfirmDialog>
    </section>
  );
}
