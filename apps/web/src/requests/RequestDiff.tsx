import { useTranslation } from 'react-i18next';
import type { ChangeRequestDetailQuery } from '../generated/graphql';
import { RowDiffTable } from '../ui/RowDiffTable';
import { RowTodayCell } from './RowTodayCell';

type ShownRequest = NonNullable<ChangeRequestDetailQuery['changeRequest']>;

/**
 * A change request's rows, old → new: the diff an approver decides on. While it is pending, a
 * column says how each row stands against today's data.
 */
export function RequestDiff({ request }: { request: ShownRequest }) {
  const { t } = useTranslation();
  // A request's rows are fixed once submitted: their place in the list names them.
  const diff = request.rows.map((row, index) => ({
    id: String(index),
    key: row.key ?? null,
    operation: row.action,
    oldValues: row.oldValues ?? null,
    newValues: row.newValues ?? null,
  }));
  const { check } = request;
  const problems = new Map(check?.problems.map((problem) => [String(problem.index), problem]));
  return (
    <RowDiffTable
      rows={diff}
      testId="request-diff"
      rowTestId="request-diff-row"
      extraColumn={
        check
          ? {
              heading: t('requests.today.heading'),
              cell: (row) => (
                <RowTodayCell
                  problem={problems.get(row.id)}
                  checked={Number(row.id) < check.rowsChecked}
                />
              ),
            }
          : undefined
      }
    />
  );
}
