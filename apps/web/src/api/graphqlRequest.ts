import type { TypedDocumentString } from '../generated/graphql';
import { type GraphqlErrorEntry, GraphqlRequestError } from './GraphqlRequestError';

interface GraphqlResponse<TResult> {
  data?: TResult | null;
  errors?: GraphqlErrorEntry[];
}

/**
 * Sends one typed operation to the API. The session cookie goes along (same origin); the JSON
 * content type is what the API's CSRF protection asks for. Any GraphQL error rejects the call:
 * no operation here is useful half-done.
 */
export async function graphqlRequest<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  ...[variables]: TVariables extends Record<string, never> ? [] : [TVariables]
): Promise<TResult> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: document.toString(), variables }),
    });
  } catch (cause) {
    throw new GraphqlRequestError(
      [{ message: cause instanceof Error ? cause.message : String(cause) }],
      'NETWORK_ERROR',
    );
  }
  const body = (await response.json().catch(() => null)) as GraphqlResponse<TResult> | null;
  if (body?.errors?.length) throw new GraphqlRequestError(body.errors, 'UNKNOWN');
  if (!response.ok || !body?.data) {
    throw new GraphqlRequestError([{ message: `HTTP ${response.status}` }], 'NETWORK_ERROR');
  }
  return body.data;
}
