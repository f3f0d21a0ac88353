import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardFormula, unguardFormula } from '../src/formulaText';
import type { TableColumn } from '../src/tableColumns';

const column = (holdsText: boolean): TableColumn => ({
  name: 'note',
  dataType: holdsText ? 'text' : 'numeric',
  kind: holdsText ? 'text' : 'decimal',
  nullable: true,
  hasDefault: false,
  primaryKey: false,
  unique: false,
  maxLength: null,
  references: null,
  holdsText,
  comment: null,
});
const TEXT = column(true);

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

// Text made of what matters here: formula characters, apostrophes and line breaks.
const awkwardText = fc
  .array(fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', "'", 'a', ' ', '\uFF1D'), {
    maxLength: 12,
  })
  .map((characters) => characters.join(''));

describe('guardFormula', () => {
  it('leaves no line of a text value starting with a formula', () => {
    fc.assert(
      fc.property(awkwardText, (value) => {
        for (const line of (guardFormula(TEXT, value) ?? '').split(/\r\n|\r|\n/)) {
          expect(line).not.toMatch(FORMULA_START);
        }
      }),
    );
  });

  it('is undone by unguardFormula, whatever the text (apostrophes of its own too)', () => {
    fc.assert(
      fc.property(awkwardText, (value) => {
        expect(unguardFormula(TEXT, guardFormula(TEXT, value))).toBe(value);
      }),
    );
  });

  it('guards as Excel reads it, at the start and after each CR or LF', () => {
    expect(guardFormula(TEXT, '\r=1+1')).toBe("'\r'=1+1");
    expect(guardFormula(TEXT, "see below\n=cmd|' /C calc'!A0")).toBe(
      "see below\n'=cmd|' /C calc'!A0",
    );
    expect(guardFormula(TEXT, "'=1")).toBe("''=1");
    expect(guardFormula(TEXT, "it's -1 = 1")).toBe("it's -1 = 1");
  });

  it('leaves numbers and NULL alone', () => {
    expect(guardFormula(column(false), '-1.50')).toBe('-1.50');
    expect(unguardFormula(column(false), "'-1.50")).toBe("'-1.50");
    expect(guardFormula(TEXT, null)).toBeNull();
  });
});
