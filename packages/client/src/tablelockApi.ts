import type { TypedDocumentString } from './generated/graphql';
import { type GraphqlEndpoint, postOperation } from './postOperation';
import { retryTransient } from './retryTransient';

/** Where the API is and which key to call it with. */
export interface TablelockClientConfig {
  /** The API's address, e.g. `https://tablelock.example.com` (its `/graphql` may be included). */
  url: string;
  /** An API key (an admin creates one: `create-api-key`); sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /**
   * How long failures that may pass (no answer, SERVICE_UNAVAILABLE, OUTCOME_UNKNOWN) are
   * retried before a call gives up: instead of each call's default (30 s for changes, 10 s for
   * reads). An acquisition adds its `wait`; a save goes on while its lease lasts.
   */
  retryForMs?: number;
}

export interface RequestOptions {
  /** How long failures that may pass (no answer, SERVICE_UNAVAILABLE, OUTCOME_UNKNOWN) are retried. */
  retryForMs: number;
  /** Aborts the request (and its retries), rejecting with the signal's reason. */
  signal?: AbortSignal;
  /**
   * With `signal`: an answer already on its way is waited for instead of cut off; only the
   * retries stop. For a change that answers at once: cut off, it would still happen, unseen.
   */
  letAnswerArrive?: boolean;
}

/** The API as the client's parts use it: operations over HTTP, and where subscriptions go. */
export interface TablelockApi {
  request<TResult, TVariables>(
    document: TypedDocumentString<TResult, TVariables>,
    variables: TVariables,
    options: RequestOptions,
  ): Promise<TResult>;
  /** How long a call retries failures that may pass: the client's setting, else `defaultMs`. */
  retryFor(defaultMs: number): number;
  /** The graphql-ws endpoint (ws:// or wss://) and its `connectionParams`. */
  readonly live: { url: string; connectionParams: { authorization: string } };
}

export function connectToApi(config: TablelockClientConfig): TablelockApi {
  const url = new URL(config.url);
  if (!url.pathname.endsWith('/graphql')) {
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/graphql`;
  }
  const endpoint: GraphqlEndpoint = { url, authorization: `Bearer ${config.apiKey}` };
  const liveUrl = new URL(url);
  liveUrl.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return {
    request: (document, variables, { retryForMs, signal, letAnswerArrive }) =>
      retryTransient(
        () => postOperation(endpoint, document, variables, letAnswerArrive ? undefined : signal),
        Date.now() + retryForMs,
        signal,
      ),
    retryFor: (defaultMs) => config.retryForMs ?? defaultMs,
    live: { url: liveUrl.href, connectionParams: { authorization: endpoint.authorization } },
  };
}
