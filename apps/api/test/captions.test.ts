import { captionsOf } from '@tablelock/master-data';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let carol: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  carol = await api.loginAs('carol');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const captionsQuery = graphql(`
  query Captions($table: String!) {
    rows(table: $table, limit: 1) {
      tableCaptions {
        language
        name
        description
      }
      columns {
        name
        captions {
          language
          name
          description
        }
      }
    }
  }
`);

describe('captions from COMMENT ON', () => {
  it('gives display names and descriptions by language for tables and columns', async () => {
    const answer = await execute(carol, captionsQuery, { table: 'price_list_items' });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.rows.tableCaptions).toEqual([
      {
        language: 'en',
        name: 'Price list items',
        description: 'The price of a product in a price list.',
      },
      { language: 'ja', name: '価格表明細', description: '価格表ごとの商品の価格。' },
    ]);
    const columns = Object.fromEntries(
      (answer.data?.rows.columns ?? []).map(({ name, captions }) => [name, captions]),
    );
    expect(columns.min_quantity).toEqual([
      { language: 'en', name: 'Minimum quantity', description: null },
      { language: 'ja', name: '最小数量', description: null },
    ]);
    expect(columns.product_id).toEqual([]);
  });

  it('takes any other comment as a description for every language', async () => {
    const answer = await execute(carol, captionsQuery, { table: 'currencies' });
    const minorUnits = answer.data?.rows.columns.find((column) => column.name === 'minor_units');
    expect(minorUnits?.captions).toEqual([
      { language: null, name: null, description: 'Digits after the decimal point (ISO 4217).' },
    ]);
  });

  it('reads a bare string as the name, and JSON that is not by language as plain text', () => {
    expect(captionsOf('{"ja": "価格"}')).toEqual([
      { language: 'ja', name: '価格', description: null },
    ]);
    expect(captionsOf('{"price": 1}')).toEqual([
      { language: null, name: null, description: '{"price": 1}' },
    ]);
    expect(captionsOf('{not json')).toEqual([
      { language: null, name: null, description: '{not json' },
    ]);
    expect(captionsOf('  ')).toEqual([]);
  });
});
