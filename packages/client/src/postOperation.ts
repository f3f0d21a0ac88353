import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { context, propagation } from '@opentelemetry/api';
import type { TypedDocumentString } from './generated/graphql';
import { TablelockError, type TablelockErrorExtensions } from './TablelockError';

/** Where operations go and who sends them. */
export interface GraphqlEndpoint {
  url: URL;
  /** The Authorization header: `Bearer <api key>`. */
  authorization: string;
}

/** One attempt's outcome: the data, or a failure that may pass if tried again. */
export type Attempt<TResult> =
  | { data: TResult }
  | { transient: TablelockError; retryAfterMs: number | undefined };

interface GraphqlResponse<TResult> {
  data?: TResult | null;
  errors?: {
    message: string;
    path?: (string | number)[];
    extensions?: TablelockErrorExtensions;
  }[];
}

/**
 * Codes of answers that may pass: the database is away, or it may not have kept a change (a
 * retry with the same idempotency key, which every change sends, learns what happened).
 */
const PASSING_CODES = new Set(['SERVICE_UNAVAILABLE', 'OUTCOME_UNKNOWN']);

/** What a proxy or a restarting server answers while the API is briefly away. */
const PASSING_HTTP_STATUSES = new Set([502, 503, 504]);

/**
 * POSTs one operation and reads its answer. Any GraphQL error rejects with a TablelockError
 * (one that may pass, SERVICE_UNAVAILABLE or OUTCOME_UNKNOWN, is returned as `transient`, as is
 * no answer at all).
 *
 * node:http rather than fetch: fetch gives up after 300 s without response headers, and an
 * acquisition may wait in line for up to an hour before the API answers.
 */
export async function postOperation<TResult, TVariables>(
  endpoint: GraphqlEndpoint,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
  signal?: AbortSignal,
): Promise<Attempt<TResult>> {
  const body = JSON.stringify({ query: document.toString(), variables });
  let response: { status: number; retryAfter: string | undefined; text: string };
  try {
    response = await post(endpoint, body, signal);
  } catch (error) {
    signal?.throwIfAborted();
    const reason = error instanceof Error ? error.message : String(error);
    return {
      transient: new TablelockError('NETWORK_ERROR', `Cannot reach ${endpoint.url}: ${reason}`, {
        cause: error,
      }),
      retryAfterMs: undefined,
    };
  }
  const answer = parseJson<GraphqlResponse<TResult>>(response.text);
  const [first] = answer?.errors ?? [];
  if (first) {
    const code = (first.extensions?.code ?? 'INTERNAL_SERVER_ERROR') as TablelockError['code'];
    const error = new TablelockError(code, first.message, {
      extensions: first.extensions ?? { code },
      ...(first.path ? { path: first.path } : {}),
    });
    if (!PASSING_CODES.has(code)) throw error;
    const seconds = first.extensions?.retryAfterSeconds;
    return { transient: error, retryAfterMs: seconds === undefined ? undefined : seconds * 1000 };
  }
  if (answer?.data && response.status === 200) return { data: answer.data };
  const error = new TablelockError(
    'NETWORK_ERROR',
    `HTTP ${response.status} from ${endpoint.url}, not a GraphQL answer.`,
  );
  if (!PASSING_HTTP_STATUSES.has(response.status)) throw error;
  const seconds = Number(response.retryAfter);
  return { transient: error, retryAfterMs: Number.isFinite(seconds) ? seconds * 1000 : undefined };
}

function post(
  endpoint: GraphqlEndpoint,
  body: string,
  signal: AbortSignal | undefined,
): Promise<{ status: number; retryAfter: string | undefined; text: string }> {
  const request = endpoint.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    accept: 'application/json',
    authorization: endpoint.authorization,
    'content-length': Buffer.byteLength(body),
  };
  // The caller's trace goes on in the API (W3C traceparent, tracestate) when the caller runs
  // OpenTelemetry; without it, the API's no-op propagator adds nothing.
  propagation.inject(context.active(), headers);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      endpoint.url,
      {
        method: 'POST',
        headers,
        ...(signal ? { signal } : {}),
      },
      (incoming: IncomingMessage) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            retryAfter: incoming.headers['retry-after'],
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
