import type { CodegenConfig } from '@graphql-codegen/cli';

// The API's SDL files are the single source of the types: every operation the app sends is
// written with `graphql()` in src and typed from them here.
const config: CodegenConfig = {
  schema: '../api/src/graphql/schema/*.graphql',
  documents: ['src/**/*.{ts,tsx}', '!src/generated/**'],
  ignoreNoDocuments: true,
  generates: {
    'src/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        // Operations are sent as strings by our own fetch executor: no GraphQL AST (and no
        // graphql-js) in the browser bundle.
        documentMode: 'string',
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: {
          DateTime: 'string',
          // The API's only JSON fields are row keys and values: column name → text or null.
          JSON: 'Record<string, string | null>',
          // A feed event's data (lock, change of rows or policy): its own shape per type.
          EventData: 'Record<string, unknown>',
        },
      },
    },
  },
};

export default config;
