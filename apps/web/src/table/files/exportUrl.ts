import type { RowView } from '../grid/createRowDatasource';

export type ExportFormat = 'csv' | 'xlsx';

/**
 * Where the server streams every row of `table` in this sort and filter as a file: the sort and
 * filter go as JSON, in the shape the `rows` query takes them; the user's time zone names the
 * file by the day it is for them (`products_2026-11-29.csv`).
 */
export function exportUrl(
  table: string,
  format: ExportFormat,
  view: RowView,
  timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
): string {
  const query = new URLSearchParams();
  if (view.sort.length > 0) query.set('sort', JSON.stringify(view.sort));
  if (view.filter.length > 0) query.set('filter', JSON.stringify(view.filter));
  query.set('tz', timeZone);
  return `/export/${encodeURIComponent(table)}.${format}?${query}`;
}
