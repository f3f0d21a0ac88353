import './history.css';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/useFormatters';
import { Dialog } from '../../ui/Dialog';
import { describeError } from '../../ui/describeError';
import { LoadingState } from '../../ui/LoadingState';
import { ValueDiff } from '../../ui/ValueDiff';
import { ChangeKindBadge } from './ChangeKindBadge';
import { rowHistoryOptions } from './historyQueries';
import { keyText, type RowValues, writerOf } from './historyTypes';

interface RowHistoryDialogProps {
  table: string;
  /** The row whose history is shown; null: closed. */
  rowKey: RowValues | null;
  onClose: () => void;
}

/** Every change of one row, newest first: who, when, how, old → new. */
export function RowHistoryDialog({ table, rowKey, onClose }: RowHistoryDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={rowKey !== null}
      title={t('changeHistory.rowTitle', { table, key: rowKey ? keyText(rowKey) : '' })}
      onClose={onClose}
      wide
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('changeHistory.close')}
        </button>
      }
    >
      {rowKey && <RowHistoryList table={table} rowKey={rowKey} />}
    </Dialog>
  );
}

function RowHistoryList({ table, rowKey }: { table: string; rowKey: RowValues }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const history = useInfiniteQuery(rowHistoryOptions(table, rowKey));
  if (history.isPending) return <LoadingState />;
  if (history.isError) {
    return (
      <p className="banner banner-error" role="alert">
        {describeError(history.error, t)}
      </p>
    );
  }
  const rows = history.data.pages.flatMap((page) => page.rows);
  if (rows.length === 0) return <p className="muted">{t('changeHistory.rowNone')}</p>;
  return (
    <>
      <ol className="row-history" data-testid="row-history">
        {rows.map((row) => (
          <li key={row.id} className="row-history-entry">
            <p className="row-history-head">
              <time dateTime={row.change.at}>{format.dateTimeSeconds(row.change.at)}</time>{' '}
              <ChangeKindBadge kind={row.change.kind} /> {writerOf(row.change)}{' '}
              <span className="muted">
                {t(`changeHistory.operations.${row.operation}`)} ·{' '}
                {t('changeHistory.changeNumber', { id: row.change.id })}
              </span>
            </p>
            <ValueDiff
              operation={row.operation}
              oldValues={row.oldValues ?? null}
              newValues={row.newValues ?? null}
            />
          </li>
        ))}
      </ol>
      {history.hasNextPage && (
        <button
          type="button"
          className="button small"
          disabled={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          {t('changeHistory.more')}
        </button>
      )}
    </>
  );
}
