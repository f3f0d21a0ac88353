import './TableLinks.css';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

// More chips than this fill the screen (a table referenced by hundreds): they fold away.
const SHOWN_UNFOLDED = 8;

/** Table names as chips that open each table; a long list folded behind its count. */
export function TableLinks({ names }: { names: readonly string[] }) {
  const { t } = useTranslation();
  const chips = (
    <span className="chip-list">
      {names.map((name) => (
        <Link key={name} to={`/tables/${encodeURIComponent(name)}`} className="chip">
          {name}
        </Link>
      ))}
    </span>
  );
  if (names.length <= SHOWN_UNFOLDED) return chips;
  return (
    <details className="folded-table-links" data-testid="folded-table-links">
      <summary>{t('tables.tableCount', { count: names.length })}</summary>
      {chips}
    </details>
  );
}
