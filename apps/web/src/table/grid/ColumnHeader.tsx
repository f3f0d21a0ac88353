import type { CustomInnerHeaderProps } from 'ag-grid-react';
import type { TableColumn } from './useTableColumns';

/** A column's name, marked as key and/or required; its type and reference are in the tooltip. */
export function ColumnHeader({
  displayName,
  tableColumn: column,
}: CustomInnerHeaderProps & { tableColumn: TableColumn }) {
  return (
    <span className="column-header">
      {column.primaryKey && <span className="column-tag">PK</span>}
      {column.references && <span className="column-tag column-tag-fk">FK</span>}
      <span className="column-name">{displayName}</span>
      {displayName !== column.name && <span className="column-technical">{column.name}</span>}
      {!column.nullable && !column.hasDefault && (
        <span className="column-required" aria-hidden="true">
          *
        </span>
      )}
    </span>
  );
}
