import { describe, expect, it } from 'vitest';
import { normalizeInput } from '../src/table/changes/normalizeInput';
import { validateValue } from '../src/table/changes/validateValue';
import { periodBounds, periodText } from '../src/ui/periodBounds';

const periodColumn = {
  name: 'valid',
  dataType: 'daterange',
  kind: 'period' as const,
  nullable: false,
  hasDefault: false,
};

describe('a period (a range column)', () => {
  it('reads as its first and last day: a date range ends the day before its exclusive end', () => {
    expect(periodText('[2026-01-01,2026-04-01)')).toBe('2026-01-01 – 2026-03-31');
    expect(periodText('[2024-02-01,2024-03-01)')).toBe('2024-02-01 – 2024-02-29');
    expect(periodText('[2026-01-01,)')).toBe('2026-01-01 –');
    expect(periodText('(,2026-01-01)')).toBe('– 2025-12-31');
    expect(periodText('[1,10]')).toBe('1 – 10');
    expect(periodText('["2026-01-01 00:00:00+00","2026-02-01 00:00:00+00")')).toBe(
      '2026-01-01 00:00:00+00 – 2026-02-01 00:00:00+00',
    );
    expect(periodText('empty')).toBe('empty');
  });

  it('shows each bound the way it is given', () => {
    expect(periodText('[2026-01-01,2026-04-01)', (day) => day.replaceAll('-', '/'))).toBe(
      '2026/01/01 – 2026/03/31',
    );
  });

  it('is typed as it reads, or in Postgres range syntax', () => {
    expect(normalizeInput('period', false, '2026-01-01 – 2026-03-31')).toBe(
      '[2026-01-01,2026-04-01)',
    );
    expect(normalizeInput('period', false, '２０２６-０１-０１ ~ 2026-12-31')).toBe(
      '[2026-01-01,2027-01-01)',
    );
    expect(normalizeInput('period', false, '2026-01-01 -')).toBe('[2026-01-01,)');
    expect(normalizeInput('period', false, ' [2026-01-01,2026-04-01) ')).toBe(
      '[2026-01-01,2026-04-01)',
    );
  });

  it('refuses text that is no period while it is typed', () => {
    expect(validateValue(periodColumn, '[2026-01-01,2026-04-01)', true)).toBeNull();
    expect(validateValue(periodColumn, '2026-01-01', true)).toEqual({ code: 'notPeriod' });
    expect(periodBounds('2026-01-01')).toBeUndefined();
  });
});
