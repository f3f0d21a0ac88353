import type { GridApi } from 'ag-grid-community';
import { type RefObject, useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import { describeError } from '../../ui/describeError';
import { useNotify } from '../../ui/Notices';
import { keyText } from '../../ui/rowKeyText';
import { saveErrorText } from '../../ui/saveErrorText';
import { captionIn } from '../captions/captionIn';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import { useValidationMessage } from '../changes/useValidationMessage';
import type { TableColumn } from '../grid/useTableColumns';
import { checkRowsQuery } from './checkOperations';
import { focusProblem } from './focusProblem';
import { type Problem, problemsOf } from './problemList';
import { useProblemKeys } from './useProblemKeys';
import './problems.css';

interface ProblemsActionsProps {
  table: string;
  /** The lock's token while the user edits; null once it is lost (nothing to check under). */
  token: string | null;
  pending: PendingChanges;
  columns: readonly TableColumn[];
  grid: RefObject<GridApi<GridRow> | null>;
  /** Check is a trial save: a table whose changes need approval is checked on submission. */
  mayCheck: boolean;
}

/** A problem's identity in the list: a row's cell may be refused for more than one reason. */
const problemKey = ({ rowId, column, cause }: Problem) =>
  [rowId, column, cause.kind === 'invalid' ? cause.issue.code : cause.error.message].join('\n');

/**
 * The edit toolbar's Check (every pending row tried at once against the database, nothing
 * written) and the list of what keeps the changes from saving, each problem a way to its cell.
 */
export function ProblemsActions({
  table,
  token,
  pending,
  columns,
  grid,
  mayCheck,
}: ProblemsActionsProps) {
  const { t, i18n } = useTranslation();
  const notify = useNotify();
  const validationMessage = useValidationMessage();
  const [open, setOpen] = useState(false);
  const [checking, setChecking] = useState(false);
  const panelId = useId();
  const columnOrder = useMemo(() => columns.map((column) => column.name), [columns]);
  const firstColumn = columnOrder[0] ?? '';
  const problems = problemsOf(pending, columnOrder);
  const notShown = useCallback(() => notify('info', (tr) => tr('problems.rowNotShown')), [notify]);
  useProblemKeys(problems, pending, grid, firstColumn, notShown);

  const columnCaption = (name: string | null) => {
    if (name === null) return t('problems.wholeRow');
    const column = columns.find((candidate) => candidate.name === name);
    return captionIn(column?.captions, i18n.language).name ?? name;
  };
  const rowLabel = (rowId: string) => {
    const key = pending.keyOf(rowId);
    if (key) return keyText(key);
    const place = pending.newRows().findIndex((row) => row.id === rowId);
    return t('problems.newRow', { number: place + 1 });
  };
  const sentence = ({ cause }: Problem) =>
    cause.kind === 'invalid' ? validationMessage(cause.issue) : saveErrorText(cause.error, t);

  async function check() {
    if (!token) return;
    setChecking(true);
    const { changes, origins } = pending.toRowChanges();
    try {
      const { checkRows: result } = await graphqlRequest(checkRowsQuery, { table, token, changes });
      const unplaced = pending.setSaveErrors(result.rowErrors, origins);
      const found = problemsOf(pending, columnOrder).length;
      if (found === 0) notify('success', (tr) => tr('problems.checkPassed'));
      else {
        notify('error', (tr) =>
          [
            tr('problems.checkFound', { count: found }),
            ...unplaced.map((error) => error.message),
          ].join(' '),
        );
        setOpen(true);
      }
    } catch (error) {
      notify('error', (tr) => describeError(error, tr));
    } finally {
      setChecking(false);
    }
  }

  return (
    <div className="problems">
      {mayCheck && (
        <button
          type="button"
          className="button small"
          disabled={!token || checking || pending.counts().total === 0}
          onClick={() => void check()}
        >
          {checking ? t('problems.checking') : t('problems.check')}
        </button>
      )}
      <button
        type="button"
        className={`button small${problems.length > 0 ? ' problems-some' : ''}`}
        aria-expanded={open}
        aria-controls={panelId}
        aria-keyshortcuts="F8 Shift+F8"
        onClick={() => setOpen(!open)}
      >
        {t('problems.button', { count: problems.length })}
      </button>
      {open && (
        <section
          id={panelId}
          className="problems-panel"
          aria-label={t('problems.title')}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setOpen(false);
          }}
        >
          {problems.length === 0 ? (
            <p className="muted">{t('problems.none')}</p>
          ) : (
            <>
              <p className="muted problems-hint">{t('problems.hint')}</p>
              <ul className="problems-list">
                {problems.map((problem) => (
                  <li key={problemKey(problem)}>
                    <button
                      type="button"
                      className="problem"
                      onClick={() => {
                        const api = grid.current;
                        if (api && !focusProblem(api, pending, problem, firstColumn)) notShown();
                      }}
                    >
                      <span className="problem-place">
                        {rowLabel(problem.rowId)} · {columnCaption(problem.column)}
                      </span>
                      <span className="problem-sentence">{sentence(problem)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </div>
  );
}
