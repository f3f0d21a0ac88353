import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { graphqlRequest } from '../../api/graphqlRequest';
import { useFormatters } from '../../i18n/useFormatters';
import { roleAtLeast } from '../../session/roles';
import { useSession } from '../../session/useSession';
import { describeError } from '../../ui/describeError';
import { LoadingState } from '../../ui/LoadingState';
import { usePageTitle } from '../../ui/usePageTitle';
import { useAccountChange } from '../accounts/useAccountChange';
import { CreateWebhookForm } from './CreateWebhookForm';
import { eventTypesText } from './eventTypeLabel';
import { WebhookDeliveries } from './WebhookDeliveries';
import { deleteWebhookMutation, updateWebhookMutation } from './webhookOperations';
import { webhooksOptions } from './webhookQueries';

/** Admins only: the endpoints that get the change feed's events, and what was sent to each. */
export function WebhooksPage() {
  const { t } = useTranslation();
  const format = useFormatters();
  const { data: user } = useSession();
  usePageTitle(t('admin.webhooks.title'));
  const webhooks = useQuery(webhooksOptions);
  const [open, setOpen] = useState<string | null>(null);
  const remove = useAccountChange(
    (id: string) => graphqlRequest(deleteWebhookMutation, { id }),
    () => (t) => t('admin.webhooks.deleted'),
    webhooksOptions.queryKey,
  );
  const enable = useAccountChange(
    (id: string) => graphqlRequest(updateWebhookMutation, { id, change: { enabled: true } }),
    () => (t) => t('admin.webhooks.enabled'),
    webhooksOptions.queryKey,
  );

  if (!user) return null;
  if (!roleAtLeast(user.role, 'admin')) return <Navigate to="/tables" replace />;
  if (!webhooks.data) {
    return webhooks.isError ? (
      <p className="banner banner-error">{describeError(webhooks.error, t)}</p>
    ) : (
      <LoadingState />
    );
  }
  return (
    <section className="page">
      <div className="page-header">
        <div className="page-title">
          <h1>{t('admin.webhooks.title')}</h1>
          <p className="muted">{t('admin.webhooks.subtitle')}</p>
        </div>
      </div>
      <CreateWebhookForm />
      <section className="panel" aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading">{t('admin.webhooks.endpoints')}</h2>
        {webhooks.data.length === 0 ? (
          <p className="muted">{t('admin.webhooks.none')}</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.webhooks.url')}</th>
                <th scope="col">{t('webhookEvents.legend')}</th>
                <th scope="col">{t('admin.webhooks.tables')}</th>
                <th scope="col">{t('admin.webhooks.columns.state')}</th>
                <th scope="col">{t('tables.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.data.map((webhook) => (
                <tr key={webhook.id}>
                  <td className="address">{webhook.url}</td>
                  <td>{eventTypesText(webhook.eventTypes, t)}</td>
                  <td>
                    {webhook.tables.join(', ') || t('admin.webhooks.all')}
                    {webhook.withRows ? ` (${t('admin.webhooks.rows')})` : ''}
                  </td>
                  <td>
                    {webhook.disabledAt
                      ? t('admin.webhooks.disabled', {
                          at: format.dateTimeSeconds(webhook.disabledAt),
                          reason: webhook.disabledReason ?? '',
                        })
                      : t('admin.webhooks.active')}
                  </td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="button"
                      aria-expanded={open === webhook.id}
                      onClick={() => setOpen(open === webhook.id ? null : webhook.id)}
                    >
                      {t('admin.webhooks.deliveries')}
                    </button>
                    {webhook.disabledAt && (
                      <button
                        type="button"
                        className="button"
                        onClick={() => enable.mutate(webhook.id)}
                      >
                        {t('admin.webhooks.enable')}
                      </button>
                    )}
                    <button
                      type="button"
                      className="button danger"
                      onClick={() => remove.mutate(webhook.id)}
                    >
                      {t('admin.webhooks.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {open && (
        <section className="panel" aria-labelledby="deliveries-heading">
          <h2 id="deliveries-heading">
            {t('admin.webhooks.deliveriesOf', {
              url: webhooks.data.find((hook) => hook.id === open)?.url ?? '',
            })}
          </h2>
          <WebhookDeliveries webhookId={open} />
        </section>
      )}
    </section>
  );
}
