import { describe, expect, it } from 'vitest';
import type { SaveError } from '../src/table/changes/PendingChanges';
import { saveErrorText } from '../src/ui/saveErrorText';
import { translator } from './support/translator';

const error = (details: SaveError['details']): SaveError => ({
  column: details.column ?? null,
  code: 'SOME_CODE',
  message: 'The English sentence of the API',
  details,
});

const cases: [string, SaveError['details'], string, string][] = [
  [
    'a missing referenced row',
    {
      kind: 'MISSING_REFERENCE',
      column: 'currency_code',
      value: 'ZZZ',
      table: 'currencies',
      targetColumn: 'code',
    },
    'ZZZ is not in currencies (currencies.code). Choose a value that exists there.',
    'ZZZ は currencies にありません（currencies.code）。存在する値を選んでください。',
  ],
  [
    'a value already used',
    { kind: 'DUPLICATE', column: 'sku', value: 'SKU-000001', table: 'products', row: '1' },
    'SKU-000001 is already used by row 1 of products. Choose another value.',
    'SKU-000001 は products の行 1 で既に使われています。別の値にしてください。',
  ],
  [
    'a simple CHECK',
    { kind: 'CHECK', column: 'unit_price', comparison: '>=', bound: '0', value: '-1' },
    'unit_price must be at least 0.',
    'unit_price は 0 以上にしてください。',
  ],
  [
    'a CHECK BETWEEN',
    { kind: 'CHECK', column: 'minor_units', comparison: 'BETWEEN', bound: '0', upperBound: '4' },
    'minor_units must be between 0 and 4.',
    'minor_units は 0 以上 4 以下にしてください。',
  ],
  [
    "a period that overlaps another row's",
    {
      kind: 'OVERLAPPING_PERIOD',
      column: 'valid',
      value: '[2025-12-01,2026-03-01)',
      table: 'product_prices',
      row: '11',
      period: '[2025-07-01,2026-01-01)',
    },
    'product_prices already has a row for 11 in 2025-07-01 – 2025-12-31. Choose a period that does not overlap it.',
    'product_prices には 11 の 2025-07-01 – 2025-12-31 の行が既にあります。重ならない期間にしてください。',
  ],
  [
    'any other CHECK',
    { kind: 'CHECK', rule: '(valid_to IS NULL) OR (valid_to >= valid_from)' },
    'The row breaks the rule (valid_to IS NULL) OR (valid_to >= valid_from).',
    '行が規則 (valid_to IS NULL) OR (valid_to >= valid_from) に反しています。',
  ],
  [
    'a value repeated in an import file',
    { kind: 'DUPLICATE_IN_FILE', column: 'sku', value: 'SKU-N1', row: '2' },
    'SKU-N1 is also in row 2 of the file. Keep it in one row.',
    'SKU-N1 はファイルの 2 行目にもあります。ひとつの行だけにしてください。',
  ],
  [
    'a row outside the rows one edits, held by another',
    { kind: 'OUT_OF_SCOPE', column: 'category_id', value: '21', holder: 'bob' },
    'category_id 21 is outside the rows you edit: bob edits those rows.',
    'category_id 21 はあなたが編集中の行の範囲外です。bob さんがその行を編集中です。',
  ],
  [
    'a row outside the rows one edits, held by nobody',
    { kind: 'OUT_OF_SCOPE', column: 'category_id', value: '31' },
    'category_id 31 is outside the rows you edit. Keep the row within your rows, or take rows of 31 too.',
    'category_id 31 はあなたが編集中の行の範囲外です。範囲内の値にするか、31 の行も編集範囲に加えてください。',
  ],
  [
    'a row still in use',
    { kind: 'IN_USE', table: 'price_list_items', row: '1', count: 3 },
    'Row 1 is still used by 3 rows of price_list_items. Change or delete those first.',
    '行 1 は price_list_items の 3 行からまだ参照されています。先にそれらを変更するか削除してください。',
  ],
  [
    'an empty required cell',
    { kind: 'NOT_NULL', column: 'name' },
    'name may not be empty. Enter a value.',
    'name は必須です。値を入力してください。',
  ],
  [
    'a value of the wrong type',
    { kind: 'INVALID_VALUE', column: 'unit_price', value: 'ten' },
    '"ten" is not a valid unit_price.',
    '「ten」は unit_price の値として正しくありません。',
  ],
];

describe('saveErrorText', () => {
  it.each(cases)('says %s in English and Japanese', async (_, details, english, japanese) => {
    expect(saveErrorText(error(details), await translator('en'))).toBe(english);
    expect(saveErrorText(error(details), await translator('ja'))).toBe(japanese);
  });

  it('falls back to the code and the API sentence for a kind it does not know', async () => {
    const unknown = { ...error({ kind: 'NEW_KIND' }), code: 'CHECK' };
    expect(saveErrorText(unknown, await translator('ja'))).toBe(
      '許可されていない値です: The English sentence of the API',
    );
  });
});
