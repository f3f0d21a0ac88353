import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { keyText } from './rowKeyText';
import { type RowOperation, ValueDiff } from './ValueDiff';

type RowValues = Record<string, string | null>;

/** One row's change as the diff table shows it. */
export interface RowDiff {
  /** Tells the rows apart: an id, or the row's place in a list that never changes. */
  id: string;
  key: RowValues | null;
  operation: RowOperation;
  oldValues?: RowValues | null;
  newValues?: RowValues | null;
}

interface RowDiffTableProps {
  rows: readonly RowDiff[];
  testId: string;
  rowTestId: string;
  className?: string;
  /** A column of the caller's after the values, e.g. how each row stands today. */
  extraColumn?: { heading: string; cell: (row: RowDiff) => ReactNode };
}

/** Rows of a change, one a line: which row, what happens to it, old → new per column. */
export function RowDiffTable({
  rows,
  testId,
  rowTestId,
  className = '',
  extraColumn,
}: RowDiffTableProps) {
  const { t } = useTranslation();
  return (
    <table className={`data-table ${className}`.trim()} data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{t('changeHistory.columns.key')}</th>
          <th scope="col">{t('changeHistory.columns.operation')}</th>
          <th scope="col">{t('changeHistory.columns.values')}</th>
          {extraColumn && <th scope="col">{extraColumn.heading}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-testid={rowTestId} data-operation={row.operation}>
            <td className="nowrap">{keyText(row.key ?? {})}</td>
            <td className="nowrap">{t(`changeHistory.operations.${row.operation}`)}</td>
            <td>
              <ValueDiff
                operation={row.operation}
                oldValues={row.oldValues ?? null}
                newValues={row.newValues ?? null}
              />
            </td>
            {extraColumn && <td>{extraColumn.cell(row)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
