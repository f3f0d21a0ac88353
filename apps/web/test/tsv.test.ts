import { describe, expect, it } from 'vitest';
import { writeHtmlTable } from '../src/table/clipboard/htmlTable';
import { parseTsv, writeTsv } from '../src/table/clipboard/tsv';

describe('parseTsv', () => {
  it('splits rows and cells, and drops the line break Excel puts after the last row', () => {
    expect(parseTsv('Pasted A\t111.11\r\nPasted B\t222.22\r\nPasted C\t333.33\r\n')).toEqual([
      ['Pasted A', '111.11'],
      ['Pasted B', '222.22'],
      ['Pasted C', '333.33'],
    ]);
  });

  it('reads rows ended by \\n alone', () => {
    expect(parseTsv('a\tb\nc\td')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('keeps tabs, line breaks and doubled quotes inside a quoted cell', () => {
    expect(parseTsv('"two\r\nlines"\t"a\ttab"\t"say ""hi"""\r\n')).toEqual([
      ['two\r\nlines', 'a\ttab', 'say "hi"'],
    ]);
  });

  it('keeps a quote inside an unquoted cell as it is', () => {
    expect(parseTsv('5" screen\tx')).toEqual([['5" screen', 'x']]);
  });

  it('keeps empty cells and an empty last row that is not the trailing line break', () => {
    expect(parseTsv('a\t\t\nb\t\t\n')).toEqual([
      ['a', '', ''],
      ['b', '', ''],
    ]);
    expect(parseTsv('a\n\n')).toEqual([['a'], ['']]);
  });

  it('reads a single value as one cell, and nothing as no cells', () => {
    expect(parseTsv('SKU-000001')).toEqual([['SKU-000001']]);
    expect(parseTsv('')).toEqual([]);
  });
});

describe('writeTsv', () => {
  it('writes rows with \\r\\n and quotes only the cells that need it', () => {
    expect(
      writeTsv([
        ['plain', 'two\nlines'],
        ['a\ttab', 'say "hi"'],
      ]),
    ).toBe('plain\t"two\nlines"\r\n"a\ttab"\t"say ""hi"""\r\n');
  });

  it('reads back what it writes', () => {
    const rows = [
      ['', 'x', ' spaced '],
      ['"', '\r\n', '\t'],
    ];
    expect(parseTsv(writeTsv(rows))).toEqual(rows);
  });
});

describe('writeHtmlTable', () => {
  it('escapes markup and keeps line breaks in their cell', () => {
    const html = writeHtmlTable([['<b>&', 'a\nb']]);
    expect(html).toContain('&lt;b&gt;&amp;</td>');
    expect(html).toContain('a<br style="mso-data-placement:same-cell">b</td>');
    expect(html.match(/<td/g)).toHaveLength(2);
  });
});
