import type { CodegenConfig } from '@graphql-codegen/cli';

// The API's SDL files are the single source of the client's types: every operation it sends is
// written with `graphql()` in src and typed from them here.
const config: CodegenConfig = {
  schema: '../../apps/api/src/schema/*.graphql',
  generates: {
    'src/generated/': {
      documents: ['src/**/*.ts', '!src/generated/**'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        // Sent as text over HTTP and graphql-ws: no GraphQL AST, and no graphql-js at run time.
        documentMode: 'string',
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { DateTime: 'string', JSON: 'Record<string, string | null>' },
      },
    },
    // Enums no operation selects (the ErrorCode list errors carry, EditBlockKind): on their own.
    'src/generated/schemaEnums.ts': {
      plugins: ['typescript'],
      config: { onlyEnums: true, enumsAsTypes: true },
    },
  },
};

export default config;
