import type { GraphQLResponse } from './testApi';

export type AnyResponse = GraphQLResponse<Record<string, unknown>>;

/** A POST to /graphql with exactly these headers, returning the raw Set-Cookie headers too. */
export async function postGraphql(
  url: string,
  headers: Record<string, string>,
  query: string,
  variables?: Record<string, unknown>,
): Promise<{ body: AnyResponse; setCookies: string[] }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return {
    body: (await response.json()) as AnyResponse,
    setCookies: response.headers.getSetCookie(),
  };
}
