import './webhooks.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import { SecretShownOnce } from '../../ui/SecretShownOnce';
import { useAccountChange } from '../accounts/useAccountChange';
import { EventTypeChoice } from './EventTypeChoice';
import { createWebhookMutation } from './webhookOperations';
import { webhooksOptions } from './webhookQueries';

const names = (text: string) =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

/** A new endpoint: its URL, which events and tables, rows or not; its secret shown once. */
export function CreateWebhookForm() {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const [eventTypes, setEventTypes] = useState<string[]>([]);
  const [tables, setTables] = useState('');
  const [withRows, setWithRows] = useState(false);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const create = useAccountChange(
    (variables: { url: string; eventTypes: string[]; tables: string[]; withRows: boolean }) =>
      graphqlRequest(createWebhookMutation, { webhook: variables }),
    () => null,
    webhooksOptions.queryKey,
  );
  if (created) {
    return (
      <SecretShownOnce
        title={t('admin.webhooks.createdTitle', { url: created.url })}
        explanation={t('admin.webhooks.shownOnce')}
        label={t('admin.webhooks.secret')}
        secret={created.secret}
        testId="webhook-secret"
        onDone={() => setCreated(null)}
      />
    );
  }
  return (
    <form
      className="account-form"
      aria-label={t('admin.webhooks.create')}
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          { url: url.trim(), eventTypes, tables: names(tables), withRows },
          {
            onSuccess: ({ createWebhook }) => {
              setUrl('');
              setCreated({ url: createWebhook.webhook.url, secret: createWebhook.secret });
            },
          },
        );
      }}
    >
      <label className="field">
        <span>{t('admin.webhooks.url')}</span>
        <input
          required
          type="url"
          autoComplete="off"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
      </label>
      <label className="field">
        <span>{t('admin.webhooks.tables')}</span>
        <input
          autoComplete="off"
          placeholder={t('admin.webhooks.all')}
          value={tables}
          onChange={(event) => setTables(event.target.value)}
        />
      </label>
      <label className="field checkbox-field">
        <input
          type="checkbox"
          checked={withRows}
          onChange={(event) => setWithRows(event.target.checked)}
        />
        <span>{t('admin.webhooks.withRows')}</span>
      </label>
      <EventTypeChoice chosen={eventTypes} onChange={setEventTypes} />
      <button type="submit" className="button primary" disabled={create.isPending}>
        {t('admin.webhooks.create')}
      </button>
    </form>
  );
}
