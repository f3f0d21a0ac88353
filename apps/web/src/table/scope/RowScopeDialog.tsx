import './rowScope.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowFilter } from '../../generated/graphql';
import { Dialog } from '../../ui/Dialog';
import { describeError } from '../../ui/describeError';
import { MOST_PROPOSED } from './proposeScope';
import type { RowScope } from './rowScopeOf';
import { ScopeValueAdder } from './ScopeValueAdder';
import { useScopeProposal, useScopeValues } from './useScopeValues';

// The API's most values per scope.
const MOST_VALUES = 1000;

interface RowScopeDialogProps {
  table: string;
  scope: RowScope;
  /** The row-lock column is a foreign key: its values have labels and value help. */
  reference: boolean;
  /** The grid's filter, whose rows' values are proposed. */
  filter: readonly RowFilter[];
  busy: boolean;
  onConfirm: (values: string[]) => void;
  onCancel: () => void;
}

/**
 * "Edit these rows": proposes the values of the row-lock column among the rows the grid shows,
 * each with its label and how many rows it covers, and who holds it if anyone; the user takes
 * values out or adds others, then takes the scope.
 */
export function RowScopeDialog(props: RowScopeDialogProps) {
  const { table, scope, reference, filter, busy } = props;
  const { t } = useTranslation();
  const proposal = useScopeProposal(table, scope.column, filter);
  const [chosen, setChosen] = useState<string[] | null>(null);
  // The dialog opens on Cancel, not on the value field (the first control while the values
  // load), whose list would cover the rest. After the dialog's own effect has opened it.
  const cancelButton = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelButton.current?.focus(), []);
  const values = chosen ?? proposal.data?.values ?? [];
  const facts = useScopeValues(table, scope.column, values);
  const total = facts.every((fact) => fact !== undefined)
    ? facts.reduce((sum, fact) => sum + (fact?.rows ?? 0), 0)
    : null;
  const proposing = filter.length > 0 && proposal.isPending && chosen === null;

  const remove = (value: string) => setChosen(values.filter((candidate) => candidate !== value));
  const add = (value: string) => {
    if (!values.includes(value)) setChosen([...values, value]);
  };

  return (
    <Dialog
      open
      title={t('rowScope.title', { table })}
      onClose={props.onCancel}
      actions={
        <>
          <button
            type="button"
            className="button subtle"
            onClick={props.onCancel}
            ref={cancelButton}
          >
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={busy || values.length === 0 || values.length > MOST_VALUES}
            onClick={() => props.onConfirm(values)}
          >
            {t('rowScope.confirm')}
          </button>
        </>
      }
    >
      <p>{t('rowScope.explain', { column: scope.column })}</p>
      {proposing && <p role="status">{t('rowScope.proposing')}</p>}
      {proposal.isError && (
        <p className="banner banner-error" role="alert">
          {describeError(proposal.error, t)}
        </p>
      )}
      {filter.length === 0 && chosen === null && <p>{t('rowScope.noFilter')}</p>}
      {proposal.data?.more && chosen === null && (
        <p className="banner banner-warning">{t('rowScope.more', { count: MOST_PROPOSED })}</p>
      )}
      {values.length > 0 && (
        <ul className="scope-values" data-testid="scope-values" aria-label={t('rowScope.values')}>
          {values.map((value, index) => {
            const fact = facts[index];
            const holder = scope.holders.get(value);
            return (
              <li key={value} data-testid={`scope-value-${value}`}>
                <span className="scope-value">
                  <span className="reference-key">{value}</span>
                  {fact?.label && <span className="reference-label">{fact.label}</span>}
                </span>
                <span className="scope-value-rows">
                  {fact ? t('rowScope.rows', { count: fact.rows }) : '…'}
                </span>
                {holder && (
                  <span className="scope-value-holder">
                    {t('rowScope.heldBy', { editor: holder })}
                  </span>
                )}
                <button
                  type="button"
                  className="button subtle small"
                  aria-label={t('rowScope.remove', { value })}
                  onClick={() => remove(value)}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {total !== null && values.length > 0 && (
        <p data-testid="scope-total">{t('rowScope.total', { count: total })}</p>
      )}
      {values.length > MOST_VALUES && (
        <p className="field-issue">{t('rowScope.tooMany', { count: MOST_VALUES })}</p>
      )}
      <ScopeValueAdder table={table} column={scope.column} reference={reference} onAdd={add} />
    </Dialog>
  );
}
