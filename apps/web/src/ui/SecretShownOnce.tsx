import { useTranslation } from 'react-i18next';

interface SecretShownOnceProps {
  title: string;
  /** Why it is shown only now, and where it goes. */
  explanation: string;
  label: string;
  secret: string;
  testId: string;
  onDone: () => void;
}

/**
 * A new credential's secret (an API key, a webhook's signing secret), shown this once: the API
 * never gives it again. It lives in this component's props only, never in the query cache.
 */
export function SecretShownOnce({
  title,
  explanation,
  label,
  secret,
  testId,
  onDone,
}: SecretShownOnceProps) {
  const { t } = useTranslation();
  return (
    <section className="banner banner-info new-key-secret" aria-labelledby={`${testId}-heading`}>
      <h3 id={`${testId}-heading`}>{title}</h3>
      <p>{explanation}</p>
      <label className="field">
        <span>{label}</span>
        <input
          readOnly
          className="address"
          value={secret}
          data-testid={testId}
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
