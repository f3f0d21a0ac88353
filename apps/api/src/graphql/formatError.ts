import { unwrapResolverError } from '@apollo/server/errors';
import { isOutcomeUnknown } from '@tablelock/db';
import { DomainError } from '@tablelock/errors';
import type { GraphQLFormattedError } from 'graphql';
import { isDatabaseUnreachable, serviceUnavailableError } from '../process/databaseUnreachable';
import { outcomeUnknownError } from '../process/outcomeUnknown';

/**
 * Gives domain refusals their `extensions.code` (and details), and turns anything unexpected
 * into an opaque INTERNAL_SERVER_ERROR: its stack is logged (see requestErrors), never sent.
 */
export function formatError(
  formatted: GraphQLFormattedError,
  error: unknown,
): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const path = formatted.path ? { path: formatted.path } : {};
  if (original instanceof DomainError) {
    return {
      message: original.message,
      ...path,
      extensions: { code: original.code, ...original.details },
    };
  }
  if (isOutcomeUnknown(original)) {
    const { message, extensions } = outcomeUnknownError();
    return { message, ...path, extensions: { ...extensions, http: undefined } };
  }
  if (isDatabaseUnreachable(original)) {
    const { message, extensions } = serviceUnavailableError();
    return { message, ...path, extensions: { ...extensions, http: undefined } };
  }
  if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
    return {
      message: 'Internal server error',
      ...path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  }
  return formatted;
}
