import { GraphqlRequestError } from '../../api/GraphqlRequestError';

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

const simplified = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * A first guess: each file column to the table column of its name, ignoring case, spaces and
 * punctuation (`Unit price` is unit_price); the others left out, for the user to choose.
 */
export function guessMapping({ fileColumns, tableColumns }: HeaderMismatch): ColumnMapping {
  const taken = new Set<string>();
  return Object.fromEntries(
    fileColumns.map((name) => {
      const match = tableColumns.find(
        (column) => !taken.has(column) && simplified(column) === simplified(name),
      );
      if (match) taken.add(match);
      return [name, match ?? null];
    }),
  );
}
