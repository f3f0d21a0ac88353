import { describe, expect, it } from 'vitest';
import { normalizeInput } from '../src/table/changes/normalizeInput';

describe('normalizeInput', () => {
  it('turns full-width digits and digit grouping into a plain number', () => {
    expect(normalizeInput('decimal', false, ' １,２３４．５ ')).toBe('1234.5');
    expect(normalizeInput('integer', false, '12_000')).toBe('12000');
  });

  it('keeps a comma that is no thousands separator, for validation to refuse (never 12,50 → 1250)', () => {
    expect(normalizeInput('decimal', false, '12,50')).toBe('12,50');
    expect(normalizeInput('decimal', false, '1,2345')).toBe('1,2345');
    expect(normalizeInput('integer', false, '1,2,3')).toBe('1,2,3');
    expect(normalizeInput('decimal', false, '-1,234,567.5')).toBe('-1234567.5');
  });

  it('reads TRUE and FALSE, as spreadsheets write them, as booleans', () => {
    expect(normalizeInput('boolean', false, 'TRUE')).toBe('true');
    expect(normalizeInput('boolean', false, ' False')).toBe('false');
  });

  it('keeps text exactly, and reads an empty input as NULL only where NULL is allowed', () => {
    expect(normalizeInput('text', true, '  Ａ社 ')).toBe('  Ａ社 ');
    expect(normalizeInput('text', true, '')).toBeNull();
    expect(normalizeInput('text', false, '')).toBe('');
    expect(normalizeInput('date', false, ' ')).toBeNull();
  });
});
