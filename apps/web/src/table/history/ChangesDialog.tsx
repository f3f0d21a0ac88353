import './history.css';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';
import { describeError } from '../../ui/describeError';
import { LoadingState } from '../../ui/LoadingState';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { ChangeEntry } from './ChangeEntry';
import {
  ChangeFilterBar,
  type ChangeFilters,
  NO_CHANGE_FILTERS,
  toChangeSetFilter,
} from './ChangeFilterBar';
import { tableChangesOptions } from './historyQueries';

interface ChangesDialogProps {
  open: boolean;
  table: string;
  /** The fencing token of the user's lock: reverts are offered only with it. */
  token: string | null;
  onClose: () => void;
  /** A revert was written: the rows shown are stale. */
  onReverted: (rows: number) => void;
}

/**
 * A table's changes (saves, imports, reverts, outside writes), newest first, each opening to
 * its rows old → new; while the user holds the lock, each can be reverted.
 */
export function ChangesDialog(props: ChangesDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={props.open}
      title={t('changeHistory.title', { table: props.table })}
      onClose={props.onClose}
      wide
      actions={
        <button type="button" className="button" onClick={props.onClose}>
          {t('changeHistory.close')}
        </button>
      }
    >
      {props.open && <ChangeList {...props} />}
    </Dialog>
  );
}

function ChangeList({ table, token, onReverted }: ChangesDialogProps) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<ChangeFilters>(NO_CHANGE_FILTERS);
  const settled = useDebouncedValue(filters, 300);
  const changes = useInfiniteQuery(tableChangesOptions(table, toChangeSetFilter(settled)));
  const list = changes.data?.pages.flatMap((page) => page.changes) ?? [];
  return (
    <>
      <ChangeFilterBar
        filters={filters}
        onChange={(change) => setFilters((current) => ({ ...current, ...change }))}
      />
      {!token && <p className="muted">{t('changeHistory.revertNeedsLock')}</p>}
      {changes.isPending ? (
        <LoadingState />
      ) : changes.isError ? (
        <p className="banner banner-error" role="alert">
          {describeError(changes.error, t)}
        </p>
      ) : list.length === 0 ? (
        <p className="muted">{t('changeHistory.none')}</p>
      ) : (
        <table className="data-table history-table" data-testid="table-changes">
          <thead>
            <tr>
              <th scope="col">{t('changeHistory.columns.at')}</th>
              <th scope="col">{t('changeHistory.columns.kind')}</th>
              <th scope="col">{t('changeHistory.columns.who')}</th>
              <th scope="col">{t('changeHistory.columns.rows')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('changeHistory.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          {list.map((change) => (
            <ChangeEntry
              key={change.id}
              table={table}
              change={change}
              token={token}
              onReverted={onReverted}
            />
          ))}
        </table>
      )}
      {changes.hasNextPage && (
        <button
          type="button"
          className="button small"
          disabled={changes.isFetchingNextPage}
          onClick={() => void changes.fetchNextPage()}
        >
          {t('changeHistory.more')}
        </button>
      )}
    </>
  );
}
