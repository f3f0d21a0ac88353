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
import { BooleanField } from './BooleanField';

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
 * One row as a form, every column a field: for tables wider than the screen, and on a phone
 * the way to edit a row. While editing, a change here is a change of the grid's row (marked
 * and checked alike, as it is typed); Save keeps the form's changes among the unsaved ones
 * (the page's Save writes them), Discard (or Escape) puts the row back as it was when the form
 * opened, and Delete row marks it deleted.
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
  // The row as the form found it: Discard writes these back.
  const [opened] = useState(() => ({ ...row.values }));
  const [texts, setTexts] = useState(() =>
    Object.fromEntries(columns.map((column) => [column.name, row.values[column.name] ?? ''])),
  );
  const state = pending.stateOf(row.id);
  const isNew = pending.isNew(row.id);
  const change = (column: DetailColumn, text: string) => {
    setTexts((current) => ({ ...current, [column.name]: text }));
    pending.setValue(row, column.name, normalizeInput(column.kind, column.nullable, text));
  };
  const discard = () => {
    pending.step(() => {
      for (const column of columns) {
        const before = opened[column.name] ?? null;
        if ((row.values[column.name] ?? null) !== before)
          pending.setValue(row, column.name, before);
      }
    });
    onClose();
  };
  const rowEditable = editable && state !== 'deleted';
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
      onClose={rowEditable ? discard : onClose}
      actions={
        rowEditable ? (
          <>
            <button
              type="button"
              className="button danger"
              onClick={() => {
                pending.delete([row]);
                onClose();
              }}
            >
              {t('rowDetails.deleteRow')}
            </button>
            <button type="button" className="button" onClick={discard}>
              {t('rowDetails.discard')}
            </button>
            <button type="button" className="button primary" onClick={onClose}>
              {t('rowDetails.save')}
            </button>
          </>
        ) : (
          <button type="button" className="button primary" onClick={onClose}>
            {t('detail.close')}
          </button>
        )
      }
    >
      <div className="row-detail">
        {columns.map((column) => {
          const { name, description } = captionIn(column.captions, language);
          const issue = pending.cellIssue(row.id, column.name);
          const id = `${formId}-${column.name}`;
          const readOnly = !rowEditable || (column.primaryKey && !isNew);
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
              ) : column.kind === 'boolean' && !readOnly ? (
                <BooleanField
                  id={id}
                  text={texts[column.name] ?? ''}
                  nullable={column.nullable}
                  onChange={(text) => change(column, text)}
                  {...fieldProps(column, id, issue !== null, description)}
                />
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
