import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="page">
      <h1>{t('notFound.title')}</h1>
      <p>
        <Link to="/tables">{t('table.backToTables')}</Link>
      </p>
    </section>
  );
}
