import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind } from 'graphql';
import type { ApiContext } from '../../context';

/** Root fields anyone may call: logging in and out, how to sign in, and asking who one is. */
const OPEN_FIELDS = new Set(['login', 'logout', 'me', 'authProviders', '__typename']);

/**
 * Open fields that work whatever credentials come with them: a session cookie that has ended
 * (after a password reset, say) must not keep a browser from logging in again, or out.
 */
const CREDENTIAL_FREE_FIELDS = new Set(['login', 'logout', 'authProviders', '__typename']);

/**
 * Every operation needs an authenticated caller, except those made only of OPEN_FIELDS. This
 * covers introspection too: the schema is shown to callers who have logged in or have a key.
 * Credentials that were sent and refused are reported, except to CREDENTIAL_FREE_FIELDS.
 */
export const requireAuthentication: ApolloServerPlugin<ApiContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, contextValue }) {
        if (contextValue.principal) return;
        const onlyFields = (allowed: Set<string>) =>
          (operation?.selectionSet.selections ?? []).every(
            (selection) => selection.kind === Kind.FIELD && allowed.has(selection.name.value),
          );
        if (onlyFields(CREDENTIAL_FREE_FIELDS)) return;
        if (onlyFields(OPEN_FIELDS) && !contextValue.credentialError) return;
        throw new GraphQLError(contextValue.credentialError ?? 'Log in or send an API key.', {
          extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
        });
      },
    };
  },
};
