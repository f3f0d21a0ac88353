import './detail.css';
import { useId, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/i18n';
import { Dialog } from '../../ui/Dialog';
import { type Caption, captionIn } from '../captions/captionIn';
import type { GridRow } from '../changes/gridRow';
import { normalizeInput } from '../changes/normalizeInput';
import type { PendingChanges } from '../changes/PendingChanges';
import { useValidationMessage } from '../changes/useValidationMessage';
import type { ColumnRules } from '../changes/validateValue';
import { ReferenceCombobox } from '../valueHelp/ReferenceCombobox';

export interface DetailColumn extends ColumnRules {
  primaryKey: boolean;
  captions: readonly Caption[];
  /** The table a foreign key references: its field offers value help. */
  references?: string | null;
}

interface RowDetailDialogProps {
  /** The table the row is of. */
  table: string;
  row: GridRow;
  columns: readonly DetailColumn[];
  pending: PendingChanges;
  /** The user holds the lock: the fields edit the row, through the same pending changes. */
  editable: boolean;
  onClose: () => void;
}

/**
 * One row as a form, every column a field: for tables wider than the screen. While editing,
 * a change here is a change of the grid's row (marked, checked and saved alike).
 */
export function RowDetailDialog({
  table,
  row,
  columns,
  pending,
  editable,
  onClose,
}: RowDetailDialogProps) {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n.resolvedLanguage);
  const message = useValidationMessage();
  const formId = useId();
  useSyncExternalStore(pending.subscribe, pending.getRevision);
  const [texts, setTexts] = useState(() =>
    Object.fromEntries(columns.map((column) => [column.name, row.values[column.name] ?? ''])),
  );
  const state = pending.stateOf(row.id);
  const isNew = pending.isNew(row.id);
  const change = (column: DetailColumn, text: string) => {
    setTexts((current) => ({ ...current, [column.name]: text }));
    pending.setValue(row, column.name, normalizeInput(column.kind, column.nullable, text));
  };
  const fieldProps = (
    column: DetailColumn,
    id: string,
    invalid: boolean,
    description: string | null | undefined,
  ) => ({
    'aria-invalid': invalid,
    'aria-describedby': invalid || description ? `${id}-note` : undefined,
    className: pending.isChanged(row.id, column.name) ? 'row-detail-changed' : undefined,
  });

  return (
    <Dialog
      open
      wide
      title={t('detail.title')}
      onClose={onClose}
      actions={
        <button type="button" className="button primary" onClick={onClose}>
          {t('detail.close')}
        </button>
      }
    >
      <div className="row-detail">
        {columns.map((column) => {
          const { name, description } = captionIn(column.captions, language);
          const issue = pending.cellIssue(row.id, column.name);
          const id = `${formId}-${column.name}`;
          const readOnly = !editable || state === 'deleted' || (column.primaryKey && !isNew);
          return (
            <div key={column.name} className="row-detail-field">
              <label htmlFor={id}>
                {name ?? column.name}
                {name && <span className="column-technical">{column.name}</span>}
              </label>
              {column.references && !readOnly ? (
                <div className="reference-field">
                  <ReferenceCombobox
                    table={table}
                    column={column.name}
                    text={texts[column.name] ?? ''}
                    onTextChange={(text) => change(column, text)}
                    onPick={(option) => change(column, option.key)}
                    listWhileFocused
                    input={{ id, ...fieldProps(column, id, issue !== null, description) }}
                  />
                </div>
              ) : (
                <input
                  id={id}
                  value={texts[column.name] ?? ''}
                  readOnly={readOnly}
                  {...fieldProps(column, id, issue !== null, description)}
                  onChange={(event) => change(column, event.target.value)}
                />
              )}
              {(issue || description) && (
                <p id={`${id}-note`} className={issue ? 'row-detail-issue' : 'row-detail-note'}>
                  {issue ? message(issue) : description}
                </p>
              )}
            </div>
          );
        })}
      </div>
    </Dialog>
  );
}
