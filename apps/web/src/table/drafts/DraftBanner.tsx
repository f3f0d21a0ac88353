import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/useFormatters';
import { draftSize } from '../changes/DraftChanges';
import type { DraftHandle } from './useDraft';

interface DraftBannerProps {
  draft: DraftHandle;
  /** This tab holds the lock: the draft can be restored here now. */
  editing: boolean;
  busy: boolean;
}

/** "You have 12 unsaved changes from 14:05": restore them or discard them. */
export function DraftBanner({ draft, editing, busy }: DraftBannerProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (!draft.offer) return null;
  const count = draftSize(draft.offer.changes);
  return (
    <div className="banner banner-warning" role="status" data-testid="draft-offer">
      <div>
        <strong>{t('draft.title', { count, time: format.dateTime(draft.offer.savedAt) })}</strong>
        <p>{editing ? t('draft.body') : t('draft.startEditing')}</p>
      </div>
      {editing && (
        <div className="banner-actions">
          <button
            type="button"
            className="button primary small"
            disabled={busy}
            onClick={draft.restore}
          >
            {t('draft.restore')}
          </button>
          <button
            type="button"
            className="button subtle small"
            disabled={busy}
            onClick={draft.discard}
          >
            {t('draft.discard')}
          </button>
        </div>
      )}
    </div>
  );
}
