import { useTranslation } from 'react-i18next';

interface NewWebhookSecretProps {
  url: string;
  secret: string;
  onDone: () => void;
}

/**
 * A new endpoint's signing secret, shown this once: GraphQL never gives it again. It lives in
 * this component's props only, never in the query cache.
 */
export function NewWebhookSecret({ url, secret, onDone }: NewWebhookSecretProps) {
  const { t } = useTranslation();
  return (
    <section className="banner banner-info new-key-secret" aria-labelledby="new-webhook-heading">
      <h3 id="new-webhook-heading">{t('admin.webhooks.createdTitle', { url })}</h3>
      <p>{t('admin.webhooks.shownOnce')}</p>
      <label className="field">
        <span>{t('admin.webhooks.secret')}</span>
        <input
          readOnly
          className="address"
          value={secret}
          data-testid="webhook-secret"
          onFocus={(event) => event.target.select()}
        />
      </label>
      <div className="row-actions">
        <button type="button" className="button primary" onClick={onDone}>
          {t('apiKeys.copiedDone')}
        </button>
      </div>
    </section>
  );
}
