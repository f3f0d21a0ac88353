import type { CustomCellRendererProps } from 'ag-grid-react';
import type { GridRow } from '../changes/gridRow';
import type { ReferenceLabels } from './ReferenceLabels';

export interface ReferenceCellParams {
  column: string;
  labels: ReferenceLabels;
}

type ReferenceCellProps = CustomCellRendererProps<GridRow, string | null> & ReferenceCellParams;

/** A foreign-key value with the referenced row's label beside it, e.g. `12 Beverages`. */
export function ReferenceCell(props: ReferenceCellProps) {
  const { column, labels, value, valueFormatted } = props;
  const label = labels.labelOf(column, value);
  return (
    <span className="reference-cell">
      <span>{valueFormatted ?? value}</span>
      {label !== null && <span className="reference-label">{label}</span>}
    </span>
  );
}
