import './reference.css';
import type { ColDef } from 'ag-grid-community';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import type { TypeAhead } from '../typeAhead/TypeAhead';
import { ReferenceCell, type ReferenceCellParams } from './ReferenceCell';
import {
  REFERENCE_EDITOR_KEYS,
  ReferenceEditor,
  type ReferenceEditorParams,
} from './ReferenceEditor';
import type { ReferenceLabels } from './ReferenceLabels';

export interface ReferenceHelp {
  /** The table whose grid this is (the one holding the foreign keys). */
  table: string;
  labels: ReferenceLabels;
}

/** What a foreign-key column changes in its column definition: label beside it, value help. */
export function referenceColumn(
  column: ReferenceEditorParams['tableColumn'] & { references?: string | null },
  pending: PendingChanges,
  typeAhead: TypeAhead,
  help: ReferenceHelp,
): Partial<ColDef<GridRow>> {
  if (!column.references) return {};
  return {
    cellRenderer: ReferenceCell,
    cellRendererParams: {
      table: help.table,
      tableColumn: column,
      pending,
      labels: help.labels,
    } satisfies ReferenceCellParams,
    cellEditor: ReferenceEditor,
    cellEditorParams: {
      table: help.table,
      tableColumn: column,
      pending,
      labels: help.labels,
      typeAhead,
    } satisfies ReferenceEditorParams,
    cellEditorPopup: true,
    cellEditorPopupPosition: 'over',
    suppressKeyboardEvent: ({ editing, event }) => editing && REFERENCE_EDITOR_KEYS.has(event.key),
  };
}
