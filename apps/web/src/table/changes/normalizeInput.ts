import type { ColumnKind } from '../../generated/graphql';
import { periodFromDays } from './periodInput';

/** Full-width ASCII (U+FF01–U+FF5E), which Japanese input methods produce, as plain ASCII. */
function toHalfWidth(text: string): string {
  return text.replace(/[\uFF01-\uFF5E]/g, (char) =>
    String.fromCharCode(char.charCodeAt(0) - 0xfee0),
  );
}

// Commas as thousands separators (1,234,567.5); any other comma is left for validation to
// refuse: `12,50` is a decimal comma, and must not become 1250.
const GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/**
 * What the user typed, as the value to store: numbers and dates lose full-width digits,
 * surrounding blanks and digit grouping; booleans are lower case (Excel writes TRUE); a period
 * typed as its first and last day becomes range text; text is kept exactly. An empty input is NULL, except
 * in a NOT NULL text column, where it stays an empty string for validation to report.
 */
export function normalizeInput(kind: ColumnKind, nullable: boolean, text: string): string | null {
  if (kind === 'text') return text === '' && nullable ? null : text;
  const trimmed = toHalfWidth(text).trim();
  if (trimmed === '') return null;
  if (kind === 'integer' || kind === 'decimal') {
    const compact = trimmed.replace(/[_\s]/g, '');
    return GROUPED.test(compact) ? compact.replaceAll(',', '') : compact;
  }
  if (kind === 'boolean') return trimmed.toLowerCase();
  if (kind === 'period') return periodFromDays(trimmed) ?? trimmed;
  return trimmed;
}
