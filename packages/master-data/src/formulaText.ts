import type { TableColumn } from './tableColumns';

// Excel runs a cell that starts with one of these as a formula (CSV injection), the full-width
// forms too.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Text that Excel would run as a formula, written with an apostrophe in front, as Excel does. */
export function guardFormula(column: TableColumn, value: string | null): string | null {
  return value !== null && column.kind === 'text' && FORMULA_START.test(value)
    ? `'${value}`
    : value;
}

/** The text `guardFormula` was given: the apostrophe is taken off again. */
export function unguardFormula(column: TableColumn, value: string | null): string | null {
  return value !== null &&
    column.kind === 'text' &&
    value.startsWith("'") &&
    FORMULA_START.test(value.slice(1))
    ? value.slice(1)
    : value;
}
