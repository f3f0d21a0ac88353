import { describe, expect, it } from 'vitest';
import { type ColumnRules, validateValue } from '../src/table/changes/validateValue';

const column = (rules: Partial<ColumnRules>): ColumnRules => ({
  name: 'c',
  dataType: 'text',
  kind: 'text',
  nullable: true,
  hasDefault: false,
  maxLength: null,
  ...rules,
});

describe('validateValue', () => {
  it('requires a value in a NOT NULL column, except in a new row where a default fills it', () => {
    const required = column({ nullable: false });
    expect(validateValue(required, null, false)).toEqual({ code: 'required' });
    expect(validateValue(required, '', false)).toEqual({ code: 'required' });
    expect(validateValue({ ...required, hasDefault: true }, null, true)).toBeNull();
    expect(validateValue({ ...required, hasDefault: true }, null, false)).toEqual({
      code: 'required',
    });
    expect(validateValue(column({}), null, false)).toBeNull();
  });

  it('counts characters, not UTF-16 units, against maxLength', () => {
    const code = column({ dataType: 'character(3)', maxLength: 3 });
    expect(validateValue(code, '東京都', false)).toBeNull();
    expect(validateValue(code, 'JPYX', false)).toEqual({ code: 'tooLong', max: 3 });
  });

  it('checks integers against the range of their type', () => {
    const small = column({ kind: 'integer', dataType: 'smallint' });
    expect(validateValue(small, '32767', false)).toBeNull();
    expect(validateValue(small, '32768', false)).toMatchObject({ code: 'outOfRange' });
    expect(validateValue(small, '1.5', false)).toEqual({ code: 'notInteger' });
    const big = column({ kind: 'integer', dataType: 'bigint' });
    expect(validateValue(big, '9223372036854775807', false)).toBeNull();
    expect(validateValue(big, '9223372036854775808', false)).toMatchObject({
      code: 'outOfRange',
    });
  });

  it('checks decimals against the precision and scale of numeric(p,s)', () => {
    const price = column({ kind: 'decimal', dataType: 'numeric(12,2)' });
    expect(validateValue(price, '1234567890.12', false)).toBeNull();
    expect(validateValue(price, '12345678901', false)).toEqual({
      code: 'tooManyDigits',
      digits: 10,
    });
    expect(validateValue(price, '1.234', false)).toEqual({ code: 'tooManyDecimals', scale: 2 });
    expect(validateValue(price, '1.230', false)).toBeNull();
    expect(validateValue(price, '1,5', false)).toEqual({ code: 'decimalComma' });
    expect(validateValue(price, '12,50', false)).toEqual({ code: 'decimalComma' });
    expect(validateValue(price, '1.2.3', false)).toEqual({ code: 'notDecimal' });
  });

  it('accepts only real calendar dates and timestamps', () => {
    const date = column({ kind: 'date', dataType: 'date' });
    expect(validateValue(date, '2024-02-29', false)).toBeNull();
    expect(validateValue(date, '2023-02-29', false)).toEqual({ code: 'notDate' });
    const timestamp = column({ kind: 'timestamp', dataType: 'timestamp with time zone' });
    expect(validateValue(timestamp, '2024-05-01 09:30:00+09', false)).toBeNull();
    expect(validateValue(timestamp, '2024-05-01T09:30', false)).toBeNull();
    expect(validateValue(timestamp, '2024-13-01 09:30', false)).toEqual({ code: 'notTimestamp' });
  });

  it('takes booleans as true or false only', () => {
    const flag = column({ kind: 'boolean', dataType: 'boolean' });
    expect(validateValue(flag, 'true', false)).toBeNull();
    expect(validateValue(flag, 'yes', false)).toEqual({ code: 'notBoolean' });
  });
});
