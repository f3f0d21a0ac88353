import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ColumnMapping, HeaderMismatch } from './columnMappingOf';
import type { FileSamples } from './fileSamples';

interface ColumnMappingStepProps {
  mismatch: HeaderMismatch;
  mapping: ColumnMapping;
  /** The file's first values of each column, to tell what a column holds. */
  samples: FileSamples;
  onChange: (mapping: ColumnMapping) => void;
}

/** Maps each column of the file to a column of the table, or leaves it out. */
export function ColumnMappingStep({
  mismatch,
  mapping,
  samples,
  onChange,
}: ColumnMappingStepProps) {
  const { t } = useTranslation();
  const id = useId();
  const chosen = Object.values(mapping);
  const repeated = mismatch.tableColumns.filter(
    (column) => chosen.filter((value) => value === column).length > 1,
  );
  return (
    <fieldset className="column-mapping" data-testid="column-mapping">
      <legend>{t('import.mapping.title')}</legend>
      <p className="muted">{t('import.mapping.explain')}</p>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('import.mapping.fileColumn')}</th>
            <th scope="col">{t('import.mapping.tableColumn')}</th>
            <th scope="col">{t('importReview.samples')}</th>
          </tr>
        </thead>
        <tbody>
          {mismatch.fileColumns.map((fileColumn, index) => (
            <tr key={fileColumn}>
              <th scope="row">
                <label htmlFor={`${id}-${index}`}>{fileColumn}</label>
              </th>
              <td>
                <select
                  id={`${id}-${index}`}
                  value={mapping[fileColumn] ?? ''}
                  onChange={(event) =>
                    onChange({ ...mapping, [fileColumn]: event.target.value || null })
                  }
                >
                  <option value="">{t('import.mapping.leaveOut')}</option>
                  {mismatch.tableColumns.map((column) => (
                    <option key={column} value={column}>
                      {column}
                    </option>
                  ))}
                </select>
              </td>
              <td className="column-samples">{(samples[fileColumn] ?? []).join(' · ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {repeated.length > 0 && (
        <p className="banner banner-error" role="alert">
          {t('import.mapping.repeated', { columns: repeated.join(', ') })}
        </p>
      )}
    </fieldset>
  );
}
