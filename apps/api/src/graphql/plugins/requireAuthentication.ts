import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, type OperationTypeNode } from 'graphql';
import type { ApiContext } from '../../context';
import { fieldRequirement } from '../fieldAccess';

const ROOT_TYPE_OF = {
  query: 'Query',
  mutation: 'Mutation',
  subscription: 'Subscription',
} as const;

/** Whether `field` of `operation`'s root type may be called without valid credentials. */
function isOpen(operation: OperationTypeNode, field: string, evenWithRefusedCredentials: boolean) {
  // Any type's name is open: it tells nothing.
  if (field === '__typename') return true;
  const requirement = fieldRequirement(ROOT_TYPE_OF[operation], field);
  return (
    requirement === 'anyoneWhateverTheCredentials' ||
    (requirement === 'anyone' && !evenWithRefusedCredentials)
  );
}

/**
 * Every operation needs an authenticated caller, except those made only of fields FIELD_ACCESS
 * opens to anyone. This covers introspection too: the schema is shown to callers who have
 * logged in or have a key. Credentials that were sent and refused are reported, except to
 * fields open whatever the credentials.
 */
export const requireAuthentication: ApolloServerPlugin<ApiContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, contextValue }) {
        if (contextValue.principal) return;
        const onlyOpenFields = (evenWithRefusedCredentials: boolean) =>
          (operation?.selectionSet.selections ?? []).every(
            (selection) =>
              selection.kind === Kind.FIELD &&
              !!operation &&
              isOpen(operation.operation, selection.name.value, evenWithRefusedCredentials),
          );
        if (onlyOpenFields(true)) return;
        if (onlyOpenFields(false) && !contextValue.credentialError) return;
        throw new GraphQLError(contextValue.credentialError ?? 'Log in or send an API key.', {
          extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
        });
      },
    };
  },
};
