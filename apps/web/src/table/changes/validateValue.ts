import type { ColumnKind } from '../../generated/graphql';
import { periodBounds } from '../../ui/periodBounds';
import { numericLimits } from './columnType';

export interface ColumnRules {
  name: string;
  dataType: string;
  kind: ColumnKind;
  nullable: boolean;
  hasDefault: boolean;
  /** No two rows may hold the same value (NULLs aside). */
  unique?: boolean;
  maxLength?: number | null;
}

/** Why a value cannot be saved; `params` fill in the message. */
export type ValidationIssue =
  | { code: 'required' }
  | { code: 'tooLong'; max: number }
  | { code: 'notInteger' }
  | { code: 'outOfRange'; min: string; max: string }
  | { code: 'notDecimal' }
  | { code: 'decimalComma' }
  | { code: 'tooManyDigits'; digits: number }
  | { code: 'tooManyDecimals'; scale: number }
  | { code: 'notBoolean' }
  | { code: 'notDate' }
  | { code: 'notTimestamp' }
  | { code: 'notPeriod' }
  /** Another new or changed row holds the same value of a UNIQUE column. */
  | { code: 'duplicate' };

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+)(?:\.(\d*))?$|^[+-]?\.(\d+)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;

function isCalendarDate(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day)
  );
}

/**
 * Checks a value against what the column's type, NOT NULL and length allow, so that the user
 * learns of a bad value while typing rather than from a failed save. `inserting`: an empty
 * value in a new row is fine where the database supplies a default.
 */
export function validateValue(
  column: ColumnRules,
  value: string | null,
  inserting: boolean,
): ValidationIssue | null {
  if (value === null || (value === '' && !column.nullable && column.kind === 'text')) {
    const optional = column.nullable || (inserting && column.hasDefault && value === null);
    return optional ? null : { code: 'required' };
  }
  switch (column.kind) {
    case 'text':
      return column.maxLength != null && [...value].length > column.maxLength
        ? { code: 'tooLong', max: column.maxLength }
        : null;
    case 'integer': {
      if (!INTEGER.test(value)) return { code: 'notInteger' };
      const { min, max } = numericLimits(column.dataType);
      const number = BigInt(value);
      if (min !== undefined && max !== undefined && (number < min || number > max)) {
        return { code: 'outOfRange', min: String(min), max: String(max) };
      }
      return null;
    }
    case 'decimal': {
      const match = DECIMAL.exec(value);
      if (!match) return value.includes(',') ? { code: 'decimalComma' } : { code: 'notDecimal' };
      const integerPart = (match[1] ?? '').replace(/^0+/, '');
      const fraction = match[2] ?? match[3] ?? '';
      const { integerDigits, scale } = numericLimits(column.dataType);
      if (scale !== undefined && fraction.replace(/0+$/, '').length > scale) {
        return { code: 'tooManyDecimals', scale };
      }
      if (integerDigits !== undefined && integerPart.length > integerDigits) {
        return { code: 'tooManyDigits', digits: integerDigits };
      }
      return null;
    }
    case 'boolean':
      return value === 'true' || value === 'false' ? null : { code: 'notBoolean' };
    case 'date': {
      const match = DATE.exec(value);
      return match && isCalendarDate(match[1] ?? '', match[2] ?? '', match[3] ?? '')
        ? null
        : { code: 'notDate' };
    }
    case 'timestamp': {
      const match = TIMESTAMP.exec(value);
      return match && isCalendarDate(match[1] ?? '', match[2] ?? '', match[3] ?? '')
        ? null
        : { code: 'notTimestamp' };
    }
    case 'period':
      return periodBounds(value) ? null : { code: 'notPeriod' };
    case 'other':
      return null;
  }
}
