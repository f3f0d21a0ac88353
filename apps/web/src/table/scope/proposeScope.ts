import { graphqlRequest } from '../../api/graphqlRequest';
import type { RowFilter } from '../../generated/graphql';
import { scopeRowQuery } from './scopeOperations';

/** A value of a proposed scope: its label where the column is a foreign key, and its rows. */
export interface ScopeValue {
  value: string;
  label: string | null;
  /** The table's rows with this value: what the scope lets the user edit. */
  rows: number;
}

export interface ScopeProposal {
  values: string[];
  /** The filtered rows have more values than proposed: the filter should be narrower. */
  more: boolean;
}

// A scope of more values than a category manager's is more likely a filter left too wide.
export const MOST_PROPOSED = 20;

/**
 * The distinct values of `column` among the rows `filter` shows, in order, at most
 * MOST_PROPOSED: one row read per value, each the first one past the value before (a skip
 * scan), so a filter over 100,000 rows costs as many reads as it has values.
 */
export async function proposeScope(
  table: string,
  column: string,
  filter: readonly RowFilter[],
): Promise<ScopeProposal> {
  const values: string[] = [];
  while (values.length <= MOST_PROPOSED) {
    const last = values.at(-1);
    const { rows } = await graphqlRequest(scopeRowQuery, {
      table,
      sort: [{ column, direction: 'asc' }],
      filter: [
        ...filter,
        { column, operator: 'isNotNull', value: null },
        ...(last === undefined ? [] : [{ column, operator: 'greaterThan' as const, value: last }]),
      ],
    });
    const value = rows.rows[0]?.values[column];
    if (value == null) return { values, more: false };
    if (values.length === MOST_PROPOSED) return { values, more: true };
    values.push(value);
  }
  return { values, more: true };
}

/** How many of the table's rows have `value` in `column`, and its label. */
export async function scopeValueOf(
  table: string,
  column: string,
  value: string,
): Promise<ScopeValue> {
  const { rows } = await graphqlRequest(scopeRowQuery, {
    table,
    filter: [{ column, operator: 'equals', value }],
  });
  const labels = rows.referenceLabels.find((found) => found.column === column)?.labels ?? [];
  const label = labels.find((found) => found.key === value)?.label ?? null;
  return { value, label, rows: rows.total };
}
