import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { isOutcomeUnknown } from '@tablelock/db';
import { DomainError } from '@tablelock/errors';
import type { ApiContext } from '../../context';
import { isDatabaseUnreachable, RETRY_AFTER_SECONDS } from '../../process/databaseUnreachable';

/**
 * Logs every unexpected error (those sent as an opaque INTERNAL_SERVER_ERROR) with its stack,
 * on the request's logger, and puts the request's id in every error sent, so that a user's
 * screenshot of an error leads to its log lines. An unreachable database is no such error: it
 * is reported once (see databaseAvailability) and answered with HTTP 503.
 */
export const requestErrors: ApolloServerPlugin<ApiContext> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, contextValue }) {
        for (const error of errors) {
          const original = unwrapResolverError(error);
          if (isDatabaseUnreachable(original)) {
            contextValue.databaseAvailability.reportUnreachable(original);
          } else if (isOutcomeUnknown(original)) {
            contextValue.logger.warn({ path: error.path }, (original as Error).message);
          } else if (error.extensions.code === undefined && !(original instanceof DomainError)) {
            contextValue.logger.error({ err: original, path: error.path }, 'resolver failed');
          }
        }
      },
      async willSendResponse({ response, contextValue }) {
        if (response.body.kind !== 'single') return;
        for (const error of response.body.singleResult.errors ?? []) {
          const code = error.extensions?.code;
          if (code === 'SERVICE_UNAVAILABLE' || code === 'OUTCOME_UNKNOWN') {
            response.http.status = 503;
            response.http.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
          }
          if (contextValue.requestId) {
            (error.extensions as Record<string, unknown>).requestId = contextValue.requestId;
          }
        }
      },
    };
  },
};
