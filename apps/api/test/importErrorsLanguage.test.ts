import { ROW_ERROR_SENTENCES } from '@tablelock/master-data';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { acquireTableLockAs } from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const dryRunMutation = graphql(`
  mutation ImportErrorsDryRun($table: String!, $token: String!, $content: String!) {
    importRows(
      table: $table
      token: $token
      fileName: "products.csv"
      format: CSV
      contentBase64: $content
      dryRun: true
    ) {
      id
      counts {
        error
      }
    }
  }
`);

const signedIn = useSignedInApi();

const HEADER =
  'id,sku,name,category_id,supplier_id,unit_price,currency_code,weight_kg,launched_on,discontinued,description';
const BAD_ROWS = [
  '900110,SKU-L1,Bad price,11,1,cheap,JPY,,2026-01-01,false,',
  '900111,SKU-L2,,11,1,1.00,JPY,,2026-01-01,false,',
  '900112,SKU-L3,No supplier,11,99999,1.00,JPY,,2026-01-01,false,',
];

async function dryRunWithErrors() {
  const lock = await acquireTableLockAs(signedIn.alice, 'products');
  const content = Buffer.from([HEADER, ...BAD_ROWS].join('\r\n')).toString('base64');
  const dryRun = await execute(signedIn.alice, dryRunMutation, {
    table: 'products',
    token: lock.token,
    content,
  });
  const id = dryRun.data?.importRows.id;
  if (!id) throw new Error(JSON.stringify(dryRun));
  expect(dryRun.data?.importRows.counts.error).toBe(3);
  return id;
}

/** The `error` column of the dry run's errors file, by the row's id. */
async function errorColumn(id: string, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${signedIn.api.url}/import/dry-runs/${id}/errors.csv${query}`, {
    headers: { ...signedIn.alice.headers, ...headers },
  });
  expect(response.status).toBe(200);
  const records = parse(await response.text(), { bom: true, columns: true }) as Record<
    string,
    string
  >[];
  return Object.fromEntries(records.map((record) => [record.id, record.error]));
}

describe("an import's errors file in its user's language, in the grid's words", () => {
  it('writes Japanese for lang=ja, even from a browser that prefers English', async () => {
    const id = await dryRunWithErrors();
    expect(await errorColumn(id, '?lang=ja', { 'accept-language': 'en-US,en;q=0.9' })).toEqual({
      '900110': '「cheap」は unit_price の値として正しくありません。',
      '900111': 'name は必須です。値を入力してください。',
      '900112':
        'supplier_id: 99999 は suppliers にありません（suppliers.id）。存在する値を選んでください。',
    });
  });

  it("follows the browser's Accept-Language without lang, and English otherwise", async () => {
    const id = await dryRunWithErrors();
    expect((await errorColumn(id, '', { 'accept-language': 'ja,en;q=0.5' }))['900111']).toBe(
      'name は必須です。値を入力してください。',
    );
    expect(await errorColumn(id, '?lang=en')).toEqual({
      '900110': '"cheap" is not a valid unit_price.',
      '900111': 'name may not be empty. Enter a value.',
      '900112':
        'supplier_id: 99999 is not in suppliers (suppliers.id). Choose a value that exists there.',
    });
    // A language the web app does not speak is English, not an error.
    expect((await errorColumn(id, '?lang=xx'))['900111']).toBe(
      'name may not be empty. Enter a value.',
    );
  });

  it("keeps the API's sentences word for word the web app's (apps/web/src/i18n)", async () => {
    // Read at run time: the web app's files belong to no project the API's tests compile with.
    const i18n = (language: string) =>
      import(new URL(`../../web/src/i18n/${language}.ts`, import.meta.url).href);
    const web = { en: (await i18n('en')).en, ja: (await i18n('ja')).ja };
    expect(ROW_ERROR_SENTENCES.en).toEqual(web.en.rowErrors);
    expect(ROW_ERROR_SENTENCES.ja).toEqual(web.ja.rowErrors);
  });
});
