import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { RevertChangeMutation } from '../../generated/graphql';
import { describeError } from '../../ui/describeError';
import { LoadingState } from '../../ui/LoadingState';
import { saveErrorText } from '../../ui/saveErrorText';
import { revertChangeMutation } from './historyOperations';
import { tableHistoryKey } from './historyQueries';
import { keyText, type RowValues, writerOf } from './historyTypes';

interface RevertPanelProps {
  table: string;
  changeId: string;
  token: string;
  /** Closed: with the number of rows written (0 when cancelled). */
  onDone: (rows: number) => void;
}

type Revert = RevertChangeMutation['revertChange'];

/**
 * Reverting a change: the dry run says what would be written and which rows were changed again
 * since (conflicts, left alone unless ticked one by one); Revert writes the rows ticked.
 */
export function RevertPanel({ table, changeId, token, onDone }: RevertPanelProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const request = (rows: RowValues[] | null, dryRun: boolean) =>
    graphqlRequest(revertChangeMutation, { table, changeId, token, rows, dryRun }).then(
      (data) => data.revertChange,
    );
  const dryRun = useQuery({
    queryKey: [...tableHistoryKey(table), 'revertDryRun', changeId, token],
    queryFn: () => request(null, true),
    gcTime: 0,
  });
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const apply = useMutation({
    mutationFn: (rows: RowValues[] | null) => request(rows, false),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: tableHistoryKey(table) });
      if (result.reverted) onDone(result.rows.length);
    },
  });

  if (dryRun.isPending) return <LoadingState />;
  if (dryRun.isError) {
    return (
      <p className="banner banner-error" role="alert">
        {describeError(dryRun.error, t)}
      </p>
    );
  }
  const plan = dryRun.data;
  const chosen = [
    ...plan.rows.filter((row) => !left.has(keyText(row.key))).map((row) => row.key),
    ...plan.conflicts.filter((row) => picked.has(keyText(row.key))).map((row) => row.key),
  ];
  const everyPlanned = left.size === 0 && picked.size === 0;
  const rowErrors = apply.data?.rowErrors ?? plan.rowErrors;
  const toggle = (set: ReadonlySet<string>, key: string) => {
    const next = new Set(set);
    if (!next.delete(key)) next.add(key);
    return next;
  };

  return (
    <section className="revert-panel" aria-label={t('changeHistory.revertTitle', { id: changeId })}>
      <h3>{t('changeHistory.revertTitle', { id: changeId })}</h3>
      <p>{t('changeHistory.revertExplain')}</p>
      {plan.rows.length > 0 && (
        <fieldset className="revert-rows">
          <legend>{t('changeHistory.revertRows', { count: plan.rows.length })}</legend>
          {plan.rows.map((row) => (
            <label key={keyText(row.key)} className="checkbox-field" data-testid="revert-row">
              <input
                type="checkbox"
                checked={!left.has(keyText(row.key))}
                onChange={() => setLeft(toggle(left, keyText(row.key)))}
              />
              {t(`changeHistory.revertActions.${row.action}`, { key: keyText(row.key) })}
            </label>
          ))}
        </fieldset>
      )}
      {plan.conflicts.length > 0 && (
        <fieldset className="revert-conflicts" data-testid="revert-conflicts">
          <legend>{t('changeHistory.conflicts', { count: plan.conflicts.length })}</legend>
          {plan.conflicts.map((conflict) => (
            <label
              key={keyText(conflict.key)}
              className="checkbox-field"
              data-testid="revert-conflict"
            >
              <input
                type="checkbox"
                checked={picked.has(keyText(conflict.key))}
                onChange={() => setPicked(toggle(picked, keyText(conflict.key)))}
              />
              {keyText(conflict.key)}: {conflictText(conflict, t)}
            </label>
          ))}
        </fieldset>
      )}
      {rowErrors.length > 0 && (
        <ul className="banner banner-error" role="alert">
          {rowErrors.map((error) => (
            <li key={keyText(error.key)}>
              {keyText(error.key)}: {saveErrorText(error, t)}
            </li>
          ))}
        </ul>
      )}
      {apply.isError && (
        <p className="banner banner-error" role="alert">
          {describeError(apply.error, t)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button subtle" onClick={() => onDone(0)}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button primary"
          disabled={chosen.length === 0 || apply.isPending}
          onClick={() => apply.mutate(everyPlanned ? null : chosen)}
        >
          {t('changeHistory.revertApply', { count: chosen.length })}
        </button>
      </div>
    </section>
  );
}

function conflictText(conflict: Revert['conflicts'][number], t: TFunction): string {
  if (conflict.laterChange) {
    return t('changeHistory.conflictReasons.changedLater', {
      who: writerOf(conflict.laterChange),
      id: conflict.laterChange.id,
    });
  }
  return t(`changeHistory.conflictReasons.${conflict.reason}`);
}
