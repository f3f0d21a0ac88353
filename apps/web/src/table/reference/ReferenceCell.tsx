import { useQuery } from '@tanstack/react-query';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useTranslation } from 'react-i18next';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import { type ColumnRules, validateValue } from '../changes/validateValue';
import { referencedRowOptions } from '../valueHelp/referenceOperations';
import type { ReferenceLabels } from './ReferenceLabels';

export interface ReferenceCellParams {
  /** The table whose grid this is (the one holding the foreign keys). */
  table: string;
  tableColumn: ColumnRules;
  pending: PendingChanges;
  labels: ReferenceLabels;
}

type ReferenceCellProps = CustomCellRendererProps<GridRow, string | null> & ReferenceCellParams;

/**
 * A foreign-key value with the referenced row's label beside it, e.g. `12 Beverages`. A value
 * whose label no page of rows brought (typed, pasted, filled) is looked up, and one that no row
 * has is flagged at once ("99999 is not in suppliers"), not only when Save is refused.
 */
export function ReferenceCell(props: ReferenceCellProps) {
  const { table, tableColumn, pending, labels, value, valueFormatted, data } = props;
  const column = tableColumn.name;
  const { t } = useTranslation();
  // A value that is no key at all ("12.5" for an integer) is marked as invalid already.
  const unknown =
    value != null &&
    data !== undefined &&
    !labels.isKnown(column, value) &&
    validateValue(tableColumn, value, pending.isNew(data.id)) === null;
  const lookup = useQuery({
    ...referencedRowOptions(table, column, value ?? ''),
    enabled: unknown,
  });
  if (unknown && lookup.data?.row) labels.remember(column, [lookup.data.row]);
  const label = lookup.data?.row?.label ?? labels.labelOf(column, value);
  const missing = unknown && lookup.data !== undefined && lookup.data.row === null;
  return (
    <span className="reference-cell">
      <span>{valueFormatted ?? value}</span>
      {missing ? (
        <span
          className="reference-missing"
          title={t('reference.notFound', { key: value, table: lookup.data?.table })}
        >
          {t('reference.notFoundShort', { table: lookup.data?.table })}
        </span>
      ) : (
        label !== null && <span className="reference-label">{label}</span>
      )}
    </span>
  );
}
