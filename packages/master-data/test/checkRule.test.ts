import { describe, expect, it } from 'vitest';
import { checkRuleSentence, readCheckRule } from '../src/errors/checkRule';

describe('readCheckRule', () => {
  it('reads a comparison with a constant, without the casts Postgres adds', () => {
    const rule = readCheckRule('CHECK ((unit_price >= (0)::numeric))');
    expect(rule).toEqual({ column: 'unit_price', comparison: '>=', bound: '0' });
    expect(checkRuleSentence(rule)).toBe('unit_price must be at least 0.');
  });

  it('reads BETWEEN as Postgres rewrites it', () => {
    const rule = readCheckRule('CHECK (((minor_units >= 0) AND (minor_units <= 4)))');
    expect(checkRuleSentence(rule)).toBe('minor_units must be between 0 and 4.');
  });

  it('reads quoted names and text constants', () => {
    expect(readCheckRule(`CHECK (("Status" <> 'it''s'::text))`)).toEqual({
      column: 'Status',
      comparison: '<>',
      bound: "it's",
    });
  });

  it('quotes any other rule as Postgres writes it', () => {
    const rule = readCheckRule('CHECK (((valid_to IS NULL) OR (valid_to >= valid_from)))');
    expect(checkRuleSentence(rule)).toBe(
      'The row breaks the rule (valid_to IS NULL) OR (valid_to >= valid_from).',
    );
  });
});
