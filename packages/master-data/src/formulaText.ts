import type { TableColumn } from './tableColumns';

// Excel runs a cell that starts with one of these as a formula (CSV injection), the full-width
// forms too. Apostrophes before one are counted, so that text which starts with an apostrophe
// of its own comes back as it was.
const FORMULA = "'*[=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20]";

// Each line of a value is guarded, not only its start: a reader that splits rows at every CR or
// LF before it reads quotes would otherwise find a formula at a row's start.
const LINE_START = '(?<=^|[\\r\\n])';
const GUARD_AT = new RegExp(`${LINE_START}(?=${FORMULA})`, 'g');
const APOSTROPHE_AT = new RegExp(`${LINE_START}'(?=${FORMULA})`, 'g');

/**
 * Text that Excel would run as a formula, written with an apostrophe in front (as Excel does),
 * at the start of the value and of each line in it. Only for columns that hold text.
 */
export function guardFormula(column: TableColumn, value: string | null): string | null {
  return value !== null && column.holdsText ? guardFormulaText(value) : value;
}

/** As guardFormula, for text that is not a table's (an audit history's reasons, names). */
export function guardFormulaText(value: string): string {
  return value.replace(GUARD_AT, "'");
}

/** The text `guardFormula` was given: one apostrophe is taken off where it put one. */
export function unguardFormula(column: TableColumn, value: string | null): string | null {
  return value !== null && column.holdsText ? value.replace(APOSTROPHE_AT, '') : value;
}
