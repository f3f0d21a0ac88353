import type { APIRequestContext } from '@playwright/test';

export interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** Sends one GraphQL operation with the cookies of `request` (a page's or a standalone one). */
export async function graphql(
  request: APIRequestContext,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphqlAnswer> {
  const response = await request.post('/graphql', {
    headers: { 'content-type': 'application/json' },
    data: { query, variables },
  });
  return (await response.json()) as GraphqlAnswer;
}

type RowValues = Record<string, string | null>;

/** A table's rows as stored now, read through the API rather than through a page. */
export async function storedRows(
  request: APIRequestContext,
  table: string,
  filter: { column: string; operator: string; value: string }[],
): Promise<RowValues[]> {
  const answer = await graphql(
    request,
    'query($table: String!, $filter: [RowFilter!]) { rows(table: $table, filter: $filter) { rows { values } } }',
    { table, filter },
  );
  const page = answer.data?.rows as { rows: { values: RowValues }[] } | undefined;
  if (!page) throw new Error(`rows failed: ${JSON.stringify(answer.errors)}`);
  return page.rows.map((row) => row.values);
}
