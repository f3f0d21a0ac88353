import type { GridApi } from 'ag-grid-community';
import { type FormEvent, type RefObject, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../ui/describeError';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import { type DetailColumn, RowDetailDialog } from '../detail/RowDetailDialog';
import { ColumnsMenu } from './ColumnsMenu';
import type { GridViews } from './useGridViews';
import './views.css';

interface GridViewBarProps {
  /** The table shown. */
  table: string;
  views: GridViews;
  columnNames: readonly string[];
  grid: RefObject<GridApi<GridRow> | null>;
  user: string;
  columns: readonly DetailColumn[];
  pending: PendingChanges;
  /** The user holds the lock: the row form edits. */
  editable: boolean;
  /** Whether the user may edit this row (inside a row scope, only the scope's rows). */
  rowEditable: (row: GridRow) => boolean;
  /** The row shown as a form (Row details, or a row tapped on a phone), null for none. */
  detailRow: GridRow | null;
  onDetailRow: (row: GridRow | null) => void;
}

/** Above the grid: the columns shown, the saved view picked, and saving the view as it is. */
export function GridViewBar(props: GridViewBarProps) {
  const { views, columnNames, grid, user, detailRow, onDetailRow } = props;
  const { t } = useTranslation();
  const selectId = useId();
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const saveMenu = useRef<HTMLDetailsElement>(null);
  const openDetail = () => {
    const api = grid.current;
    const cell = api?.getFocusedCell();
    const node =
      cell?.rowPinned === 'top'
        ? api?.getPinnedTopRow(cell.rowIndex)
        : api?.getDisplayedRowAtIndex(cell?.rowIndex ?? 0);
    onDetailRow(node?.data ?? null);
  };
  const picked = views.picked;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    views.save.mutate(
      { name, shared },
      {
        onSuccess: () => {
          if (saveMenu.current) saveMenu.current.open = false;
        },
      },
    );
  };

  return (
    <div className="views-bar">
      <ColumnsMenu columnNames={columnNames} grid={grid} />
      <label htmlFor={selectId}>{t('views.view')}</label>
      <select
        id={selectId}
        value={picked?.id ?? ''}
        onChange={(event) =>
          views.pick(views.views.find((view) => view.id === event.target.value) ?? null)
        }
      >
        <option value="">{t('views.yourLayout')}</option>
        {views.views.map((view) => (
          <option key={view.id} value={view.id}>
            {view.owner === user
              ? view.shared
                ? t('views.sharedByYou', { name: view.name })
                : view.name
              : t('views.sharedBy', { name: view.name, owner: view.owner })}
          </option>
        ))}
      </select>
      {picked && picked.owner === user && (
        <button
          type="button"
          className="button"
          disabled={views.remove.isPending}
          onClick={() => views.remove.mutate(picked.id)}
        >
          {t('views.delete')}
        </button>
      )}
      <details ref={saveMenu} className="views-menu">
        <summary className="button">{t('views.save')}</summary>
        <form className="views-popover" onSubmit={submit}>
          <label>
            {t('views.name')}
            <input
              required
              maxLength={100}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </label>
          <label>
            <input
              type="checkbox"
              checked={shared}
              onChange={(event) => setShared(event.target.checked)}
            />
            {t('views.shared')}
          </label>
          <button type="submit" className="button primary" disabled={views.save.isPending}>
            {t('views.saveSubmit')}
          </button>
          {views.save.isError && (
            <p role="alert" className="views-error">
              {describeError(views.save.error, t)}
            </p>
          )}
        </form>
      </details>
      <button type="button" className="button" onClick={openDetail}>
        {t('detail.open')}
      </button>
      {detailRow && (
        <RowDetailDialog
          table={props.table}
          row={detailRow}
          columns={props.columns}
          pending={props.pending}
          editable={props.editable && props.rowEditable(detailRow)}
          onClose={() => onDetailRow(null)}
        />
      )}
      {views.pickedMissing && (
        <p role="alert" className="views-error">
          {t('views.missing')}
        </p>
      )}
    </div>
  );
}
