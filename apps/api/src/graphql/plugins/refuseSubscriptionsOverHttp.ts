import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';

/**
 * A subscription sent as an HTTP request is a client mistake, answered as one: executed like a
 * query it would fail inside the resolver and be logged as an internal error.
 */
export const refuseSubscriptionsOverHttp: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation !== 'subscription') return;
        throw new GraphQLError(
          'Send subscriptions over WebSocket (graphql-ws on /graphql), not as HTTP requests.',
          { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } },
        );
      },
    };
  },
};
