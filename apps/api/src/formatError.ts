import { unwrapResolverError } from '@apollo/server/errors';
import { DomainError } from '@tablelock/errors';
import type { GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';

/**
 * Gives domain refusals their `extensions.code` (and details), and turns anything unexpected
 * into an opaque INTERNAL_SERVER_ERROR (logged here with its stack, never sent to the client).
 */
export function createErrorFormatter(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const path = formatted.path ? { path: formatted.path } : {};
    if (original instanceof DomainError) {
      return {
        message: original.message,
        ...path,
        extensions: { code: original.code, ...original.details },
      };
    }
    if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
      logger.error({ err: original, path: formatted.path }, 'resolver failed');
      return {
        message: 'Internal server error',
        ...path,
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      };
    }
    return formatted;
  };
}
