import type { GridApi } from 'ag-grid-community';
import type { RefObject } from 'react';
import { EditToolbar } from './changes/EditToolbar';
import type { GridRow } from './changes/gridRow';
import type { ChangeCounts, PendingChanges } from './changes/PendingChanges';
import type { TableColumn } from './grid/useTableColumns';
import { ProblemsActions } from './problems/ProblemsActions';

import type { RowScope } from './scope/rowScopeOf';

interface EditToolsProps {
  table: string;
  columns: readonly TableColumn[];
  pending: PendingChanges;
  grid: RefObject<GridApi<GridRow> | null>;
  lockLost: boolean;
  /** Rows selected in the grid. */
  selected: number;
  counts: ChangeCounts;
  /** Cells whose value cannot be saved as it is. */
  invalid: number;
  /** The user's row scope, whose (first) value a new row starts with. */
  scope: RowScope | null;
  /** The edit session's fencing token, which Check writes under; null once it is lost. */
  token: string | null;
  /** Whether Check is offered: not where changes need approval (submitting checks them). */
  mayCheck: boolean;
}

/** The toolbar over the grid while editing: the changes' problems first, then the row actions. */
export function EditTools({ scope, token, mayCheck, ...props }: EditToolsProps) {
  return (
    <EditToolbar
      {...props}
      newRowValues={scope?.mine ? { [scope.column]: scope.mine[0] ?? '' } : undefined}
    >
      <ProblemsActions
        table={props.table}
        token={token}
        pending={props.pending}
        columns={props.columns}
        grid={props.grid}
        mayCheck={mayCheck}
      />
    </EditToolbar>
  );
}
