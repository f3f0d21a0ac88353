import { GraphQLError } from 'graphql';
import { RETRY_AFTER_SECONDS } from './databaseUnreachable';

/**
 * What a caller gets when the database may or may not have kept its change (see
 * OutcomeUnknownError): HTTP 503, never success. A retry with the same idempotency key answers
 * what happened.
 */
export function outcomeUnknownError(): GraphQLError {
  return new GraphQLError(
    'The database may not have kept this change. Retry with the same idempotency key to learn the outcome.',
    {
      extensions: {
        code: 'OUTCOME_UNKNOWN',
        retryAfterSeconds: RETRY_AFTER_SECONDS,
        http: { status: 503, headers: new Map([['retry-after', String(RETRY_AFTER_SECONDS)]]) },
      },
    },
  );
}
