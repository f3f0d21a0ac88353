import { RowDiffTable } from '../ui/RowDiffTable';
import type { RowOperation } from '../ui/ValueDiff';

interface RequestDiffProps {
  rows: readonly {
    action: RowOperation;
    key?: Record<string, string | null> | null;
    oldValues?: Record<string, string | null> | null;
    newValues?: Record<string, string | null> | null;
  }[];
}

/** A change request's rows, old → new: the diff an approver decides on. */
export function RequestDiff({ rows }: RequestDiffProps) {
  // A request's rows are fixed once submitted: their place in the list names them.
  const diff = rows.map((row, index) => ({
    id: String(index),
    key: row.key ?? null,
    operation: row.action,
    oldValues: row.oldValues ?? null,
    newValues: row.newValues ?? null,
  }));
  return <RowDiffTable rows={diff} testId="request-diff" rowTestId="request-diff-row" />;
}
