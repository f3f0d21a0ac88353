import type { TableInfoFieldsFragment } from '../generated/graphql';

type EditBlock = NonNullable<TableInfoFieldsFragment['editBlock']>;

/** One entry of a GraphQL response's `errors`. */
export interface GraphqlErrorEntry {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: {
    code?: string;
    retryAfterSeconds?: number;
    /** LOCK_CONFLICT (and TABLE_FROZEN, ...): what is in the way (the facts of TableInfo.editBlock). */
    editBlock?: EditBlock['kind'];
    blockers?: EditBlock['blockers'];
    /** TABLE_FROZEN: the freeze's reason. */
    reason?: string;
    /** BAD_USER_INPUT of a change's time: before now, or beyond `latest` (five years on). */
    effectiveAt?: 'past' | 'tooFar';
    latest?: string;
  };
}

/**
 * A request the API refused, or one that never got an answer. `code` is the first error's
 * `extensions.code` (e.g. LOCK_LOST), or NETWORK_ERROR when no GraphQL answer came back.
 */
export class GraphqlRequestError extends Error {
  readonly code: string;
  readonly errors: readonly GraphqlErrorEntry[];

  constructor(errors: readonly GraphqlErrorEntry[], fallbackCode: string) {
    super(errors[0]?.message ?? fallbackCode);
    this.name = 'GraphqlRequestError';
    this.errors = errors;
    this.code = errors[0]?.extensions?.code ?? fallbackCode;
  }

  get retryAfterSeconds(): number | undefined {
    return this.errors[0]?.extensions?.retryAfterSeconds;
  }

  get extensions(): GraphqlErrorEntry['extensions'] {
    return this.errors[0]?.extensions;
  }
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof GraphqlRequestError ? error.code : undefined;
}
