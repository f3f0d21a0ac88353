import { useTranslation } from 'react-i18next';
import type { ImportDryRunRowsQuery } from '../../generated/graphql';
import { saveErrorText } from '../../ui/saveErrorText';

type ImportRow = ImportDryRunRowsQuery['importReport']['rows']['rows'][number];

/**
 * One page of a dry run's rows: which row each is (its key, and its label as value help shows
 * it), what it does, and the cells that make it so (the changed cells of an update, old and
 * new; the errors of a row that cannot be written).
 */
export function ImportRowList({
  columns,
  keyColumns,
  labelColumn,
  rows,
  loading,
}: {
  columns: string[];
  /** The table's primary key. */
  keyColumns: readonly string[];
  /** The column that names a row beside its key (each row's `label`); null for none. */
  labelColumn: string | null;
  rows: ImportRow[];
  loading: boolean;
}) {
  const { t } = useTranslation();
  const text = (value: string | null | undefined) => (value == null ? t('import.null') : value);
  // The key as the database read it; as the file has it where that is not a valid key.
  const keyOf = (row: ImportRow) => {
    const key = (row.key ?? row.values) as Record<string, string | null>;
    return keyColumns.map((column) => text(key[column])).join(', ');
  };

  return (
    <div className="import-rows" aria-busy={loading}>
      <table className="data-table" data-testid="import-rows">
        <thead>
          <tr>
            <th scope="col">{t('import.line')}</th>
            <th scope="col">{keyColumns.join(', ')}</th>
            {labelColumn && <th scope="col">{labelColumn}</th>}
            <th scope="col">{t('import.result')}</th>
            <th scope="col">{t('import.details')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.line} className={`import-row import-${row.outcome}`}>
              <td>{row.line}</td>
              <td className="import-key">{keyOf(row)}</td>
              {labelColumn && <td>{row.label ?? '—'}</td>}
              <td>
                <span className={`import-badge import-${row.outcome}`}>
                  {t(`import.badge.${row.outcome}`)}
                </span>
              </td>
              <td>
                {row.outcome === 'update' && (
                  <ul className="import-cells">
                    {row.changed.map((column) => (
                      <li key={column}>
                        <span className="import-column">{column}</span>{' '}
                        <del>{text(row.previous?.[column])}</del> →{' '}
                        <ins>{text(row.values[column])}</ins>
                      </li>
                    ))}
                  </ul>
                )}
                {row.outcome === 'error' && (
                  <ul className="import-cells">
                    {row.errors.map((error) => (
                      <li key={`${error.column}-${error.code}`}>
                        {error.column && <span className="import-column">{error.column}</span>}{' '}
                        {error.details
                          ? saveErrorText({ ...error, details: error.details }, t)
                          : error.message}
                      </li>
                    ))}
                  </ul>
                )}
                {(row.outcome === 'create' || row.outcome === 'unchanged') && (
                  <span className="import-values">
                    {columns
                      .slice(0, 4)
                      .map((column) => `${column}: ${text(row.values[column])}`)
                      .join(' · ')}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
