import type { RowSort } from '../../generated/graphql';

/** A sort as the `sort` URL parameter writes it: `name:desc,id:asc` (names escaped). */
export function formatSortParam(sort: readonly RowSort[]): string {
  return sort
    .map(({ column, direction }) => `${encodeURIComponent(column)}:${direction}`)
    .join(',');
}

/** The sort a `sort` URL parameter names; terms that are not `column:asc|desc` are left out. */
export function parseSortParam(param: string | null): RowSort[] | null {
  if (param === null) return null;
  return param.split(',').flatMap((term) => {
    const at = term.lastIndexOf(':');
    const direction = term.slice(at + 1);
    if (at <= 0 || (direction !== 'asc' && direction !== 'desc')) return [];
    try {
      return [{ column: decodeURIComponent(term.slice(0, at)), direction }];
    } catch {
      return [];
    }
  });
}
