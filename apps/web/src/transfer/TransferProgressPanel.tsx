import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';
import { useNow } from '../ui/useNow';
import type { TransferProgress } from './transferProgress';
import { useShownAfter } from './useShownAfter';

/** A transfer over within this is shown no progress at all. */
const SHOW_AFTER_MS = 1000;

/**
 * How far an upload, a dry run, an apply or a download has got, once it has lasted a second:
 * a progress bar (with bytes and percent when there is a measure, moving stripes when only the
 * server knows) and the time this phase has taken. Screen readers hear each new phase through
 * the live region, and can read the bar's value at any time.
 */
export function TransferProgressPanel({ progress }: { progress: TransferProgress | null }) {
  const shown = useShownAfter(progress !== null, SHOW_AFTER_MS);
  const titleId = useId();
  // The live region stays in the page while nothing is shown, so that screen readers hear
  // the first phase as it appears.
  return (
    <div className={shown ? 'transfer-progress is-shown' : 'transfer-progress'}>
      <p id={titleId} className="transfer-progress-title" aria-live="polite">
        {shown && progress ? <PhaseTitle progress={progress} /> : null}
      </p>
      {shown && progress && <ProgressBar progress={progress} labelledBy={titleId} />}
    </div>
  );
}

function PhaseTitle({ progress }: { progress: TransferProgress }) {
  const { t } = useTranslation();
  switch (progress.phase) {
    case 'upload':
      return <>{t('progress.uploading', { file: progress.file })}</>;
    case 'checking':
      return <>{t('progress.checking')}</>;
    case 'writing':
      return <>{t('progress.writing')}</>;
    case 'download':
      return <>{t('progress.downloading', { file: progress.file })}</>;
  }
}

function ProgressBar({ progress, labelledBy }: { progress: TransferProgress; labelledBy: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const now = useNow(1000);
  const elapsed = t('progress.elapsed', {
    time: format.seconds(Math.max(0, Math.floor((now - progress.since) / 1000))),
  });
  const measured =
    progress.phase === 'upload' || progress.phase === 'download' ? progress : undefined;
  const percent = measured?.total
    ? Math.min(100, Math.floor((measured.loaded / measured.total) * 100))
    : null;
  const detail = !measured
    ? t('progress.serverWorking')
    : measured.total
      ? t('progress.ofTotal', {
          loaded: format.bytes(measured.loaded),
          total: format.bytes(measured.total),
          percent: percent ?? 0,
        })
      : t('progress.received', { loaded: format.bytes(measured.loaded) });
  return (
    <>
      <div
        role="progressbar"
        aria-labelledby={labelledBy}
        aria-valuemin={percent === null ? undefined : 0}
        aria-valuemax={percent === null ? undefined : 100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={detail}
        className={
          percent === null ? 'transfer-progress-track indeterminate' : 'transfer-progress-track'
        }
      >
        <div
          className="transfer-progress-fill"
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
      <p className="transfer-progress-detail muted">
        {detail} · {elapsed}
      </p>
    </>
  );
}
