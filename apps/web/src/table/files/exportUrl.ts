import type { RowView } from '../grid/createRowDatasource';

export type ExportFormat = 'csv' | 'xlsx';

/**
 * Where the server streams every row of `table` in this sort and filter as a file: the sort and
 * filter go as JSON, in the shape the `rows` query takes them.
 */
export function exportUrl(table: string, format: ExportFormat, view: RowView): string {
  const query = new URLSearchParams();
  if (view.sort.length > 0) query.set('sort', JSON.stringify(view.sort));
  if (view.filter.length > 0) query.set('filter', JSON.stringify(view.filter));
  const search = query.size > 0 ? `?${query}` : '';
  return `/export/${encodeURIComponent(table)}.${format}${search}`;
}
