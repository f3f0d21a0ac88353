import { GraphqlRequestError } from '../../api/GraphqlRequestError';
import type { Caption } from '../captions/captionIn';

/** A file whose header is not the table's column names: what a mapping step needs. */
export interface HeaderMismatch {
  fileColumns: string[];
  tableColumns: string[];
}

/** Where each file column goes: a table column, or null to leave it out. */
export type ColumnMapping = Record<string, string | null>;

/** The header mismatch an IMPORT_BAD_FILE refusal reports, if that is what it is. */
export function headerMismatchOf(error: unknown): HeaderMismatch | undefined {
  if (!(error instanceof GraphqlRequestError) || error.code !== 'IMPORT_BAD_FILE') return;
  const facts = error.errors[0]?.extensions as Partial<HeaderMismatch> | undefined;
  if (!Array.isArray(facts?.fileColumns) || !Array.isArray(facts?.tableColumns)) return;
  return { fileColumns: facts.fileColumns, tableColumns: facts.tableColumns };
}

/** A table column and its display names, which a file's header may use instead of its name. */
export interface MappedColumn {
  name: string;
  captions: readonly Caption[];
}

// Case, width (full-width letters), spaces and punctuation aside: `Unit price` is unit_price.
const simplified = (name: string) =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * A first guess: each file column to the table column whose name or caption (in any language)
 * it is, ignoring case, spaces and punctuation (`Product name` is the column captioned so,
 * `商品名` too); the others left out, for the user to choose.
 */
export function guessMapping(
  { fileColumns, tableColumns }: HeaderMismatch,
  columns: readonly MappedColumn[],
): ColumnMapping {
  const namesOf = (column: string) => [
    column,
    ...(columns.find((known) => known.name === column)?.captions ?? []).flatMap(
      (caption) => caption.name ?? [],
    ),
  ];
  const taken = new Set<string>();
  return Object.fromEntries(
    fileColumns.map((name) => {
      const match = tableColumns.find(
        (column) =>
          !taken.has(column) &&
          namesOf(column).some((known) => simplified(known) === simplified(name)),
      );
      if (match) taken.add(match);
      return [name, match ?? null];
    }),
  );
}
