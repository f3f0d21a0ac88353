import type { TFunction } from 'i18next';
import { GraphqlRequestError } from '../../api/GraphqlRequestError';
import { saveErrorText } from '../../ui/saveErrorText';
import type { SaveError } from '../changes/PendingChanges';

/** A file row an applied import was refused for, as IMPORT_REJECTED's extensions give it. */
type RejectedRow = SaveError & { line: number };

/**
 * IMPORT_REJECTED names the first rows the database refused: each as its file row and why, in
 * the user's language. Empty for any other error.
 */
export function rejectedRowsOf(error: unknown, t: TFunction): string[] {
  if (!(error instanceof GraphqlRequestError) || error.code !== 'IMPORT_REJECTED') return [];
  const rows = (error.errors[0]?.extensions as { rows?: RejectedRow[] } | undefined)?.rows;
  return (rows ?? []).map((row) =>
    t('import.rejectedRow', { line: row.line, why: saveErrorText(row, t) }),
  );
}
