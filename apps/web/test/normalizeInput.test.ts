import { describe, expect, it } from 'vitest';
import { normalizeInput } from '../src/table/changes/normalizeInput';

describe('normalizeInput', () => {
  it('turns full-width digits and digit grouping into a plain number', () => {
    expect(normalizeInput('decimal', false, ' １,２３４．５ ')).toBe('1234.5');
    expect(normalizeInput('integer', false, '12_000')).toBe('12000');
  });

  it('keeps text exactly, and reads an empty input as NULL only where NULL is allowed', () => {
    expect(normalizeInput('text', true, '  Ａ社 ')).toBe('  Ａ社 ');
    expect(normalizeInput('text', true, '')).toBeNull();
    expect(normalizeInput('text', false, '')).toBe('');
    expect(normalizeInput('date', false, ' ')).toBeNull();
  });
});
