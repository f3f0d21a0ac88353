import type { ColumnKind } from '../../generated/graphql';

/** Full-width ASCII (U+FF01–U+FF5E), which Japanese input methods produce, as plain ASCII. */
function toHalfWidth(text: string): string {
  return text.replace(/[\uFF01-\uFF5E]/g, (char) =>
    String.fromCharCode(char.charCodeAt(0) - 0xfee0),
  );
}

/**
 * What the user typed, as the value to store: numbers and dates lose full-width digits,
 * surrounding blanks and digit grouping; text is kept exactly. An empty input is NULL, except
 * in a NOT NULL text column, where it stays an empty string for validation to report.
 */
export function normalizeInput(kind: ColumnKind, nullable: boolean, text: string): string | null {
  if (kind === 'text') return text === '' && nullable ? null : text;
  const trimmed = toHalfWidth(text).trim();
  if (trimmed === '') return null;
  if (kind === 'integer' || kind === 'decimal') return trimmed.replace(/[,_\s]/g, '');
  return trimmed;
}
