import type { PostgresError } from '../postgresError';
import type { RowErrorDetails } from './rowErrorDetails';

/** The write guard's SQLSTATE for a write outside its row scope. */
export const OUT_OF_SCOPE_SQLSTATE = 'TL007';

// The guard's message (migration row_scope_writes, fence_row_scopes) is the only place the
// value and its holder are given: the driver passes tablelock no other field of the error.
const GUARD_MESSAGE =
  /^tablelock: a row of .+? with (\S+) (.*) is outside the row scope of token \d+ \((.*)\): (?:nobody holds it|(.+) holds it)\.$/s;

/** A row outside the writer's row scope, as describeViolation says any refused row. */
export interface OutOfScopeViolation {
  code: 'OUT_OF_SCOPE';
  column: string | null;
  message: string;
  details: RowErrorDetails;
}

/**
 * A row the write guard refused because it lies outside the writer's row scope (before or after
 * the change): which value of the row-lock column, the scope's values, and who holds the value.
 */
export function outOfScope(error: PostgresError): OutOfScopeViolation {
  const said = GUARD_MESSAGE.exec(error.message);
  if (!said) {
    return {
      code: 'OUT_OF_SCOPE',
      column: null,
      message: error.message,
      details: { kind: 'OUT_OF_SCOPE' },
    };
  }
  const [, column = '', value = '', scope = '', holder] = said;
  return {
    code: 'OUT_OF_SCOPE',
    column,
    message: `${column} ${value} is outside your row scope (${scope}): ${holder ? `${holder} holds it` : 'nobody holds it; take a scope that names it'}.`,
    details: { kind: 'OUT_OF_SCOPE', column, value, ...(holder ? { holder } : {}) },
  };
}
