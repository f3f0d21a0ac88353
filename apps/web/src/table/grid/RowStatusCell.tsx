import type { RowPinnedType } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { saveErrorText } from '../../ui/saveErrorText';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import './rowStatus.css';

export interface RowStatusCellParams {
  pending: PendingChanges;
}

type RowStatusCellProps = CustomCellRendererProps<GridRow> & RowStatusCellParams;

/**
 * The first column: what is unsaved about the row (new, changed, deleted), why it cannot be
 * saved (invalid cells, or the errors of the last save), and a way to undo it.
 */
export function RowStatusCell(props: RowStatusCellProps) {
  const { data, pending } = props;
  const { t } = useTranslation();
  useCellButtonKeys(props);
  if (!data) return null;
  const state = pending.stateOf(data.id);
  const errors = pending.saveErrorsFor(data.id);
  const invalid = errors.length === 0 ? pending.invalidCellCount(data.id) : 0;
  const errorText = errors.map((error) => saveErrorText(error, t)).join('\n');

  const undo = () => {
    // The row stays: the focus goes from the button, about to disappear, to its cell.
    focusStatusCell(props, props.node.rowIndex, props.node.rowPinned);
    pending.revert(data);
  };
  const remove = () => {
    // The row goes: the focus goes to a row that stays where it is, the new row above or else
    // the first stored row.
    const index = props.node.rowIndex ?? 0;
    if (index > 0) focusStatusCell(props, index - 1, 'top');
    else if (props.api.getDisplayedRowCount() > 0) focusStatusCell(props, 0, null);
    pending.delete([data]);
  };

  const stateText = state !== 'unchanged' && errors.length === 0 ? t(`rowState.${state}`) : '';
  const invalidText = invalid > 0 ? t('grid.invalidCells', { count: invalid }) : '';
  // A narrow column: an icon, with the words in its tooltip and for screen readers.
  const description = [stateText, errorText, invalidText].filter(Boolean).join('\n');
  const icon = errors.length > 0 || invalid > 0 ? '⚠' : STATE_ICONS[state];
  return (
    <div
      className="row-status"
      data-testid="row-status"
      data-row-state={errors.length > 0 ? 'error' : state}
      title={description || undefined}
    >
      {icon && (
        <span
          className={`row-icon row-icon-${errors.length > 0 || invalid > 0 ? 'error' : state}`}
          aria-hidden="true"
        >
          {icon}
        </span>
      )}
      <span className="visually-hidden">{description}</span>
      {(state === 'changed' || state === 'deleted') && (
        <button
          type="button"
          className="link-button row-action"
          aria-label={t('grid.undo')}
          title={t('grid.undo')}
          onClick={undo}
        >
          ↺
        </button>
      )}
      {state === 'new' && (
        <button
          type="button"
          className="link-button row-action"
          aria-label={t('grid.remove')}
          title={t('grid.remove')}
          onClick={remove}
        >
          ✕
        </button>
      )}
    </div>
  );
}

const STATE_ICONS: Record<string, string> = { new: '+', changed: '✎', deleted: '−' };

/** Gives the grid's focus to this column's cell in a row, when the focus is in this cell now. */
function focusStatusCell(
  { api, column, eGridCell }: RowStatusCellProps,
  rowIndex: number | null,
  rowPinned: RowPinnedType,
) {
  if (!column || rowIndex === null || !eGridCell.contains(document.activeElement)) return;
  api.setFocusedCell(rowIndex, column, rowPinned);
}

/**
 * The grid moves between cells, not into them: as the ARIA grid pattern has it for a cell
 * holding a widget, Enter (or F2) moves the focus into the cell's button and Escape back out.
 * The button's own Enter and Space stay its own (the grid's Space would select the row too).
 */
function useCellButtonKeys(props: RowStatusCellProps) {
  const { eGridCell } = props;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const button = eGridCell.querySelector('button');
      if (!button) return;
      if (event.target !== button) {
        if (event.key === 'Enter' || event.key === 'F2') {
          event.preventDefault();
          button.focus();
        }
      } else if (event.key === 'Escape') {
        event.preventDefault();
        focusStatusCell(props, props.node.rowIndex, props.node.rowPinned);
      } else if (event.key === 'Enter' || event.key === ' ') {
        event.stopPropagation();
      }
    };
    eGridCell.addEventListener('keydown', onKeyDown);
    return () => eGridCell.removeEventListener('keydown', onKeyDown);
  });
}
