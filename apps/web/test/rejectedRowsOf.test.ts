import { describe, expect, it } from 'vitest';
import { GraphqlRequestError } from '../src/api/GraphqlRequestError';
import { rejectedRowsOf } from '../src/table/files/rejectedRowsOf';
import { translator } from './support/translator';

const refusal = (code: string, extensions: Record<string, unknown> = {}) =>
  new GraphqlRequestError(
    [{ message: 'The English sentence of the API', extensions: { code, ...extensions } }],
    'UNKNOWN',
  );

const swapped = refusal('IMPORT_REJECTED', {
  rows: [
    {
      line: 2,
      key: { id: '10' },
      code: 'UNIQUE',
      column: 'code',
      message: 'JP-KANSAI is already used by region 11.',
      details: {
        kind: 'DUPLICATE',
        column: 'code',
        value: 'JP-KANSAI',
        table: 'regions',
        row: '11',
      },
    },
  ],
});

describe('rejectedRowsOf', () => {
  it('says each refused file row and why, in en and ja', async () => {
    expect(rejectedRowsOf(swapped, await translator('en'))).toEqual([
      'Row 2 of the file: JP-KANSAI is already used by row 11 of regions. Choose another value.',
    ]);
    expect(rejectedRowsOf(swapped, await translator('ja'))).toEqual([
      'ファイルの 2 行目：JP-KANSAI は regions の行 11 で既に使われています。別の値にしてください。',
    ]);
  });

  it('is empty for other errors and for a refusal that names no row', async () => {
    const t = await translator('en');
    expect(rejectedRowsOf(refusal('IMPORT_ROWS_CHANGED', { rows: [{ line: 2 }] }), t)).toEqual([]);
    expect(rejectedRowsOf(refusal('IMPORT_REJECTED'), t)).toEqual([]);
    expect(rejectedRowsOf(new Error('offline'), t)).toEqual([]);
  });
});
