import { useTranslation } from 'react-i18next';

interface NewApiKeySecretProps {
  name: string;
  secret: string;
  onDone: () => void;
}

/**
 * A new key's secret, shown this once: only its hash is kept, so it is gone once this closes.
 * It lives in this component's props only, never in the query cache.
 */
export function NewApiKeySecret({ name, secret, onDone }: NewApiKeySecretProps) {
  const { t } = useTranslation();
  return (
    <section className="banner banner-info new-key-secret" aria-labelledby="new-key-heading">
      <h3 id="new-key-heading">{t('apiKeys.createdTitle', { name })}</h3>
      <p>{t('apiKeys.shownOnce')}</p>
      <label className="field">
        <span>{t('apiKeys.secret')}</span>
        <input
          readOnly
          className="address"
          value={secret}
          data-testid="api-key-secret"
          onFocus={(event) => event.target.select()}
        />
      </label>
      <div className="row-actions">
        <button
          type="button"
          className="button"
          onClick={() => navigator.clipboard?.writeText(secret)}
        >
          {t('apiKeys.copy')}
        </button>
        <button type="button" className="button primary" onClick={onDone}>
          {t('apiKeys.copiedDone')}
        </button>
      </div>
    </section>
  );
}
