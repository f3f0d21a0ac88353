import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind } from 'graphql';
import type { ApiContext } from '../context';

/** Root fields anyone may call: logging in and out, and asking who one is. */
const OPEN_FIELDS = new Set(['login', 'logout', 'me', '__typename']);

/**
 * Every operation needs an authenticated caller, except those made only of OPEN_FIELDS. This
 * covers introspection too: the schema is shown to callers who have logged in or have a key.
 */
export const requireAuthentication: ApolloServerPlugin<ApiContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, contextValue }) {
        if (contextValue.principal) return;
        const open = (operation?.selectionSet.selections ?? []).every(
          (selection) => selection.kind === Kind.FIELD && OPEN_FIELDS.has(selection.name.value),
        );
        if (open && !contextValue.credentialError) return;
        throw new GraphQLError(contextValue.credentialError ?? 'Log in or send an API key.', {
          extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
        });
      },
    };
  },
};
