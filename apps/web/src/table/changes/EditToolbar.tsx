import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ChangeSummary } from './ChangeSummary';
import type { ChangeCounts } from './PendingChanges';

interface EditToolbarProps {
  lockLost: boolean;
  /** Rows selected in the grid. */
  selected: number;
  counts: ChangeCounts;
  invalid: number;
  onAddRow: () => void;
  onDeleteSelected: () => void;
  /** More actions on the selected rows, before Delete (which stays last, next to the grid). */
  children?: ReactNode;
}

/** Above the grid while editing: add and delete rows, and what is unsaved so far. */
export function EditToolbar(props: EditToolbarProps) {
  const { t } = useTranslation();
  return (
    <div className="edit-toolbar" role="toolbar" aria-label={t('table.editTools')}>
      <button
        type="button"
        className="button small"
        disabled={props.lockLost}
        onClick={props.onAddRow}
      >
        + {t('table.addRow')}
      </button>
      {props.children}
      <button
        type="button"
        className="button small"
        disabled={props.lockLost || props.selected === 0}
        onClick={props.onDeleteSelected}
      >
        {props.selected === 0
          ? t('table.deleteRows')
          : t('table.deleteSelected', { count: props.selected })}
      </button>
      <ChangeSummary counts={props.counts} invalid={props.invalid} />
    </div>
  );
}
