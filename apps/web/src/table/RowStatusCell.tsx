import type { CustomCellRendererProps } from 'ag-grid-react';
import { useTranslation } from 'react-i18next';
import type { GridRow } from './gridRow';
import type { PendingChanges } from './PendingChanges';
import { saveErrorText } from './saveErrorText';

export interface RowStatusCellParams {
  pending: PendingChanges;
}

/**
 * The first column: what is unsaved about the row (new, changed, deleted), why it cannot be
 * saved (invalid cells, or the errors of the last save), and a way to undo it.
 */
export function RowStatusCell({
  data,
  pending,
}: CustomCellRendererProps<GridRow> & RowStatusCellParams) {
  const { t } = useTranslation();
  if (!data) return null;
  const state = pending.stateOf(data.id);
  const errors = pending.saveErrorsFor(data.id);
  const invalid = errors.length === 0 ? pending.invalidCellCount(data.id) : 0;
  const errorText = errors.map((error) => saveErrorText(error, t)).join('\n');
  return (
    <div
      className="row-status"
      data-testid="row-status"
      data-row-state={errors.length > 0 ? 'error' : state}
    >
      {state !== 'unchanged' && errors.length === 0 && (
        <span className={`row-tag row-tag-${state}`}>{t(`rowState.${state}`)}</span>
      )}
      {errors.length > 0 && (
        <span className="row-error" title={errorText}>
          {errorText}
        </span>
      )}
      {invalid > 0 && (
        <span className="row-invalid">{t('grid.invalidCells', { count: invalid })}</span>
      )}
      {(state === 'changed' || state === 'deleted') && (
        <button type="button" className="link-button" onClick={() => pending.revert(data)}>
          {t('grid.undo')}
        </button>
      )}
      {state === 'new' && (
        <button type="button" className="link-button" onClick={() => pending.delete([data])}>
          {t('grid.remove')}
        </button>
      )}
    </div>
  );
}
