import type { ColumnState, GridApi } from 'ag-grid-community';
import { type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridRow } from '../changes/gridRow';

interface ColumnsMenuProps {
  columnNames: readonly string[];
  grid: RefObject<GridApi<GridRow> | null>;
}

/** Shows, hides and pins the table's columns (the grid keeps the layout for the user). */
export function ColumnsMenu({ columnNames, grid }: ColumnsMenuProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<ColumnState[]>([]);
  const read = () => setState(grid.current?.getColumnState() ?? []);
  const stateOf = (column: string) => state.find((entry) => entry.colId === column);

  return (
    <details className="views-menu" onToggle={read}>
      <summary className="button">{t('views.columns')}</summary>
      <fieldset className="views-popover">
        <legend>{t('views.columnsLegend')}</legend>
        {columnNames.map((column) => (
          <div key={column} className="views-column">
            <label>
              <input
                type="checkbox"
                checked={stateOf(column)?.hide !== true}
                onChange={(event) => {
                  grid.current?.setColumnsVisible([column], event.target.checked);
                  read();
                }}
              />
              {column}
            </label>
            <label className="views-pin">
              <input
                type="checkbox"
                aria-label={t('views.pinColumn', { column })}
                checked={stateOf(column)?.pinned === 'left'}
                onChange={(event) => {
                  grid.current?.setColumnsPinned([column], event.target.checked ? 'left' : null);
                  read();
                }}
              />
              {t('views.pin')}
            </label>
          </div>
        ))}
      </fieldset>
    </details>
  );
}
