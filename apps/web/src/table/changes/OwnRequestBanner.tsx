import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { latestOwnRequestOptions } from '../../requests/changeRequestQueries';

interface OwnRequestBannerProps {
  table: string;
  user: string;
  /** The lock is the author's again (sent back, withdrawn): go on editing under its token. */
  onContinue: ((token: string) => void) | null;
}

/** The author's newest change request on this table: waiting, or how it was decided (live). */
export function OwnRequestBanner({ table, user, onContinue }: OwnRequestBannerProps) {
  const { t } = useTranslation();
  const request = useQuery(latestOwnRequestOptions(table, user)).data;
  if (!request) return null;
  const tone = request.state === 'applied' || request.state === 'pending' ? 'info' : 'warning';
  return (
    <div className={`banner banner-${tone}`} role="status" data-testid="own-request">
      {t('requests.decided', { id: request.id, state: t(`requests.states.${request.state}`) })}{' '}
      {request.decidedBy && t('requests.decidedBy', { who: request.decidedBy })}
      {request.decisionComment && <q> {request.decisionComment}</q>}
      {request.token && onContinue && (
        <button
          type="button"
          className="button small"
          onClick={() => request.token && onContinue(request.token)}
        >
          {t('table.continueEditing')}
        </button>
      )}
    </div>
  );
}
