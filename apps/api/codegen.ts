import type { CodegenConfig } from '@graphql-codegen/cli';

// The SDL files are the single source of the API's types: resolvers are typed from them here,
// and clients (the web app, other systems) generate theirs from the same files.
const config: CodegenConfig = {
  schema: 'src/schema/*.graphql',
  generates: {
    'src/generated/graphql.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        contextType: '../context#ApiContext',
        mappers: {
          TableInfo: '@tablelock/lock#TableInfo as TableInfoModel',
          ResultTableStatus: '@tablelock/lock#LockOutcome',
          FKResultTableStatus: '@tablelock/lock#FkTableStatus',
          Principal: '@tablelock/identity#Principal as PrincipalModel',
          User: '@tablelock/identity#UserInfo',
          ApiKey: '@tablelock/identity#ApiKeyInfo',
        },
        scalars: { DateTime: 'Date' },
      },
    },
  },
};

export default config;
