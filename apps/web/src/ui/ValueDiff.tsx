import { useTranslation } from 'react-i18next';
/** What a change does to a row. */
export type RowOperation = 'insert' | 'update' | 'delete';

/** A row's values as text, by column; null is NULL. */
type RowValues = Record<string, string | null>;

interface ValueDiffProps {
  operation: RowOperation;
  oldValues: RowValues | null;
  newValues: RowValues | null;
}

/** A row's change, column by column: old → new (an insert shows the new row, a delete the old). */
export function ValueDiff({ operation, oldValues, newValues }: ValueDiffProps) {
  const { t } = useTranslation();
  const columns = Object.keys({ ...oldValues, ...newValues });
  const shown = (value: string | null | undefined) =>
    value === null || value === undefined ? t('changeHistory.null') : value;
  return (
    <dl className="value-diff" data-testid="value-diff">
      {columns.map((column) => (
        <div key={column} className="value-diff-entry">
          <dt>{column}</dt>
          <dd>
            {operation !== 'insert' && (
              <del className="value-old">{shown(oldValues?.[column])}</del>
            )}
            {operation === 'update' && <span aria-hidden="true"> → </span>}
            {operation !== 'delete' && (
              <ins className="value-new">{shown(newValues?.[column])}</ins>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
