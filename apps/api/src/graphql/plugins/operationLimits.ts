import { ApolloArmor } from '@escape.tech/graphql-armor';
import { specifiedRules } from 'graphql';

/** The most lexical tokens an operation may have; checked while parsing, before anything else. */
export const MAX_TOKENS = 2000;

// Limits on what one operation may ask for, over HTTP and WebSocket alike. Our own queries stay
// far below them; the standard introspection query (as code generators send it) nests 21 deep.
// protect() is called once: it adds its error reporter to the config on every call.
const protection = new ApolloArmor({
  maxDepth: { n: 25, ignoreIntrospection: false },
  costLimit: { maxCost: 5000 },
  // Aliased `__typename` counts too (armor lets it through by default).
  maxAliases: { n: 20, allowList: [] },
  // Armor's token check throws from a plugin hook, which Apollo answers with HTTP 500: GraphQL's
  // own parser counts tokens instead (parseOptions below), a syntax error answered with 400.
  maxTokens: { enabled: false },
  maxDirectives: { n: 20 },
  blockFieldSuggestion: { enabled: true },
}).protect();

/** For Apollo Server (HTTP): the token limit while parsing, armor's validation rules and its plugin for field suggestions. */
export const apolloOperationLimits = {
  parseOptions: { maxTokens: MAX_TOKENS },
  validationRules: protection.validationRules,
  plugins: protection.plugins,
};

/**
 * For graphql-ws, which validates nothing itself when onSubscribe parses: GraphQL's own rules
 * and the same limits. The token limit is applied by parsing with `{ maxTokens: MAX_TOKENS }`.
 */
export const subscriptionValidationRules = [...specifiedRules, ...protection.validationRules];
