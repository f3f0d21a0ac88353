import type { CodegenConfig } from '@graphql-codegen/cli';

// The API's SDL files are the single source of the client's types: every operation it sends is
// written with `graphql()` in src and typed from them here.
const OPERATION_TYPES = {
  preset: 'client',
  presetConfig: { fragmentMasking: false },
  config: {
    // Sent as text over HTTP and graphql-ws: no GraphQL AST, and no graphql-js at run time.
    documentMode: 'string',
    enumsAsTypes: true,
    useTypeImports: true,
    scalars: {
      DateTime: 'string',
      JSON: 'Record<string, string | null>',
      EventData: 'Record<string, unknown>',
    },
  },
} as const;

const config: CodegenConfig = {
  schema: '../../apps/api/src/graphql/schema/*.graphql',
  generates: {
    'src/generated/': { documents: ['src/**/*.ts', '!src/generated/**'], ...OPERATION_TYPES },
    // The operations tests send on their own (an admin's, a rival holder's), typed the same way.
    'test/generated/': { documents: ['test/**/*.ts', '!test/generated/**'], ...OPERATION_TYPES },
    // Enums no operation selects (the ErrorCode list errors carry, EditBlockKind): on their own.
    'src/generated/schemaEnums.ts': {
      plugins: ['typescript'],
      config: { onlyEnums: true, enumsAsTypes: true },
    },
  },
};

export default config;
