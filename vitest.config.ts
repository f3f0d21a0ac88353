import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// Node resolves `graphql` (it has no exports map) to its CommonJS build, for our code and for the
// libraries that use it (Apollo, graphql-ws, graphql-armor). Vite would give our code the ES
// build instead: two copies of graphql's classes, whose schemas and errors fail each other's
// instanceof checks. Tests resolve it as Node does when the app runs.
const graphqlAsNodeResolvesIt = createRequire(
  new URL('apps/api/package.json', import.meta.url),
).resolve('graphql');

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlAsNodeResolvesIt }] },
  test: {
    include: ['{apps,packages}/*/test/**/*.test.ts'],
    globalSetup: [
      'packages/test-support/src/globalSetup.ts',
      'packages/test-support/src/compiledApi.ts',
      'packages/client/test/support/compiledClient.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
