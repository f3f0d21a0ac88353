import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import { useFormatters } from '../../i18n/useFormatters';
import { useAccountChange } from '../accounts/useAccountChange';
import { resendWebhookDeliveryMutation } from './webhookOperations';
import { webhookDeliveriesOptions } from './webhookQueries';

/** One endpoint's delivery log, newest first, each message with "Send again". */
export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const log = useQuery(webhookDeliveriesOptions);
  const resend = useAccountChange(
    (id: string) => graphqlRequest(resendWebhookDeliveryMutation, { id }),
    ({ resendWebhookDelivery }) =>
      (t) =>
        resendWebhookDelivery.delivered
          ? t('admin.webhooks.resent')
          : t('admin.webhooks.resendFailed'),
    webhookDeliveriesOptions.queryKey,
  );
  const deliveries = log.data?.find((webhook) => webhook.id === webhookId)?.deliveries ?? [];
  if (deliveries.length === 0) return <p className="muted">{t('admin.webhooks.noDeliveries')}</p>;
  return (
    <table className="data-table" aria-label={t('admin.webhooks.deliveries')}>
      <thead>
        <tr>
          <th scope="col">{t('admin.webhooks.columns.at')}</th>
          <th scope="col">{t('admin.webhooks.columns.message')}</th>
          <th scope="col">{t('admin.webhooks.columns.status')}</th>
          <th scope="col">{t('admin.webhooks.columns.latency')}</th>
          <th scope="col">{t('admin.webhooks.columns.attempt')}</th>
          <th scope="col">{t('tables.columns.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr key={delivery.id}>
            <td>{format.dateTimeSeconds(delivery.at)}</td>
            <td>
              {delivery.table} {delivery.type} ({delivery.messageId})
            </td>
            <td>
              {delivery.delivered
                ? t('admin.webhooks.delivered', { status: delivery.responseStatus })
                : t('admin.webhooks.failed', { error: delivery.error ?? '' })}
            </td>
            <td>{t('admin.webhooks.latencyMs', { ms: delivery.latencyMs })}</td>
            <td>{delivery.attempt}</td>
            <td>
              <button
                type="button"
                className="button"
                disabled={resend.isPending}
                onClick={() => resend.mutate(delivery.id)}
              >
                {t('admin.webhooks.resend')}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
