import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** Shown when a page fails to render or load (e.g. the app was updated and a chunk is gone). */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  return (
    <main className="page error-page">
      <h1>{t('routeError.title')}</h1>
      <p>{t('routeError.body')}</p>
      <pre className="muted">{error instanceof Error ? error.message : String(error)}</pre>
      <button type="button" className="button primary" onClick={() => window.location.reload()}>
        {t('routeError.reload')}
      </button>
    </main>
  );
}
