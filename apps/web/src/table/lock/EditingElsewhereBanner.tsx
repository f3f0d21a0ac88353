import { useTranslation } from 'react-i18next';

interface EditingElsewhereBannerProps {
  table: string;
  busy: boolean;
  onContinueHere: () => void;
}

/** The user holds the lock, but through another tab or device: only one place can save. */
export function EditingElsewhereBanner({
  table,
  busy,
  onContinueHere,
}: EditingElsewhereBannerProps) {
  const { t } = useTranslation();
  return (
    <div className="banner banner-info" data-testid="editing-elsewhere">
      <div>
        <strong>{t('elsewhere.title', { table })}</strong>
        <p>{t('elsewhere.body')}</p>
      </div>
      <div className="banner-actions">
        <button
          type="button"
          className="button primary small"
          disabled={busy}
          onClick={onContinueHere}
        >
          {t('elsewhere.continueHere')}
        </button>
      </div>
    </div>
  );
}
