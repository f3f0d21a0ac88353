import type { ApiProcess } from '@tablelock/test-support';
import type { TypedDocumentString } from '../generated/graphql';
import type { GraphQLResponse } from './testApi';

/** Sends a typed operation to `api` with API key `secret`, as `execute` does to a TestClient. */
export async function callWithKey<TResult, TVariables>(
  api: ApiProcess,
  secret: string,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<GraphQLResponse<TResult>> {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  return (await response.json()) as GraphQLResponse<TResult>;
}
