import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { latestOwnRequestOptions } from '../../requests/changeRequestQueries';
import { requestStateText } from '../../schedule/requestStateText';

interface OwnRequestBannerProps {
  table: string;
  user: string;
  /** The lock is the author's again (sent back, withdrawn): go on editing under its token. */
  onContinue: ((token: string) => void) | null;
}

// Going as planned: waiting, or done. The others need the author's attention.
const CALM_STATES = new Set(['applied', 'pending', 'scheduled']);

/** The author's newest change request on this table: waiting, or how it was decided (live). */
export function OwnRequestBanner({ table, user, onContinue }: OwnRequestBannerProps) {
  const { t } = useTranslation();
  const request = useQuery(latestOwnRequestOptions(table, user)).data;
  if (!request) return null;
  const tone = CALM_STATES.has(request.state) ? 'info' : 'warning';
  return (
    <div className={`banner banner-${tone}`} role="status" data-testid="own-request">
      {t('requests.decided', {
        id: request.id,
        state: requestStateText(request.state, request.effectiveAt, t),
      })}{' '}
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
