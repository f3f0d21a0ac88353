import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../ui/describeError';
import { LoadingState } from '../../ui/LoadingState';
import { RowDiffTable } from '../../ui/RowDiffTable';
import { changeRowsOptions } from './historyQueries';

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
      <RowDiffTable
        rows={list}
        testId="change-rows"
        rowTestId="change-row"
        className="change-rows"
      />
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
