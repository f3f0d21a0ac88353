import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../ui/describeError';
import { LoadingState } from '../../ui/LoadingState';
import { ValueDiff } from '../../ui/ValueDiff';
import { changeRowsOptions } from './historyQueries';
import { keyText } from './historyTypes';

/** The rows of one change, old → new, page after page. */
export function ChangeRows({ table, changeId }: { table: string; changeId: string }) {
  const { t } = useTranslation();
  const rows = useInfiniteQuery(changeRowsOptions(table, changeId));
  if (rows.isPending) return <LoadingState />;
  if (rows.isError) {
    return (
      <p className="banner banner-error" role="alert">
        {describeError(rows.error, t)}
      </p>
    );
  }
  const list = rows.data.pages.flatMap((page) => page.rows);
  return (
    <>
      <table className="data-table change-rows" data-testid="change-rows">
        <thead>
          <tr>
            <th scope="col">{t('changeHistory.columns.key')}</th>
            <th scope="col">{t('changeHistory.columns.operation')}</th>
            <th scope="col">{t('changeHistory.columns.values')}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((row) => (
            <tr key={row.id} data-testid="change-row" data-operation={row.operation}>
              <td className="nowrap">{keyText(row.key)}</td>
              <td>{t(`changeHistory.operations.${row.operation}`)}</td>
              <td>
                <ValueDiff
                  operation={row.operation}
                  oldValues={row.oldValues ?? null}
                  newValues={row.newValues ?? null}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.hasNextPage && (
        <button
          type="button"
          className="button small"
          disabled={rows.isFetchingNextPage}
          onClick={() => void rows.fetchNextPage()}
        >
          {t('changeHistory.moreRows')}
        </button>
      )}
    </>
  );
}
