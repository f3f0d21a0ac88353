import { describe, expect, it } from 'vitest';
import { guessMapping } from '../src/table/files/columnMappingOf';
import { fileSamples } from '../src/table/files/fileSamples';

const COLUMNS = [
  { name: 'id', captions: [] },
  {
    name: 'name',
    captions: [
      { language: 'en', name: 'Product name' },
      { language: 'ja', name: '商品名' },
    ],
  },
  { name: 'unit_price', captions: [{ language: 'ja', name: '単価' }] },
  { name: 'note', captions: [{ language: null, name: null, description: 'Product name' }] },
];
const TABLE_COLUMNS = COLUMNS.map((column) => column.name);

describe('guessMapping', () => {
  it('maps a header by the columns’ names and by their captions in any language', () => {
    expect(
      guessMapping(
        { fileColumns: ['ID', 'Product name', 'Unit price'], tableColumns: TABLE_COLUMNS },
        COLUMNS,
      ),
    ).toEqual({ ID: 'id', 'Product name': 'name', 'Unit price': 'unit_price' });
    expect(
      guessMapping(
        { fileColumns: ['ＩＤ', '商品名', '単価'], tableColumns: TABLE_COLUMNS },
        COLUMNS,
      ),
    ).toEqual({ ＩＤ: 'id', 商品名: 'name', 単価: 'unit_price' });
  });

  it('takes a column once, and never by its description or by a name it only contains', () => {
    expect(
      guessMapping(
        {
          fileColumns: ['product name', 'PRODUCT_NAME', 'Name of product', 'Product'],
          tableColumns: TABLE_COLUMNS,
        },
        COLUMNS,
      ),
    ).toEqual({
      'product name': 'name',
      PRODUCT_NAME: null,
      'Name of product': null,
      Product: null,
    });
  });
});

describe('fileSamples', () => {
  it('reads the first values of each column of a CSV file, quoted fields and all', async () => {
    const file = new File(
      [
        '\uFEFFid,Product name,Unit price\r\n1,"Tea, green",2.50\r\n2,"Say ""hi""\nthere",\r\n3,C,4\r\n4,D,5\r\n',
      ],
      'products.csv',
    );
    expect(await fileSamples(file)).toEqual({
      id: ['1', '2', '3'],
      'Product name': ['Tea, green', 'Say "hi"\nthere', 'C'],
      'Unit price': ['2.50', '4'],
    });
  });

  it('has none for an XLSX file', async () => {
    expect(await fileSamples(new File(['PK'], 'products.xlsx'))).toEqual({});
  });
});
