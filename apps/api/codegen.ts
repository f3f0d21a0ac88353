import type { CodegenConfig } from '@graphql-codegen/cli';

// The SDL files are the single source of the API's types: resolvers are typed from them here,
// and clients (the web app, other systems) generate theirs from the same files.
const config: CodegenConfig = {
  schema: 'src/graphql/schema/*.graphql',
  generates: {
    'src/graphql/generated/graphql.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        contextType: '../../context#ApiContext',
        mappers: {
          TableInfo: '@tablelock/lock#TableInfo as TableInfoModel',
          RowLock: '@tablelock/lock#RowScope as RowScopeModel',
          TablePage: '@tablelock/lock#TablePage as TablePageModel',
          TableState: '@tablelock/lock#TableState as TableStateModel',
          ResultTableStatus: '@tablelock/lock#LockOutcome',
          FKResultTableStatus: '@tablelock/lock#FkTableStatus',
          Principal: '@tablelock/identity#Principal as PrincipalModel',
          User: '@tablelock/identity#UserInfo',
          ApiKey: '@tablelock/identity#ApiKeyInfo',
          SecurityEvent: '@tablelock/identity#SecurityEventRecord',
          RowPage: '@tablelock/master-data#RowPage as RowPageModel',
          Column: '@tablelock/master-data#TableColumn',
          Row: '@tablelock/master-data#MasterRow',
          ScheduledCellChange:
            '@tablelock/master-data#ScheduledCellChange as ScheduledCellChangeModel',
          SaveResult: '@tablelock/master-data#SaveResult as SaveResultModel',
          RowError: '@tablelock/master-data#RowError as RowErrorModel',
          ImportReport: '@tablelock/master-data#ImportReport as ImportReportModel',
          ImportRow: '@tablelock/master-data#ImportRow as ImportRowModel',
          ChangeSet: '@tablelock/master-data#ChangeSetRecord',
          RowChange: '@tablelock/master-data#RowChangeRecord',
          RowChangePage: '@tablelock/master-data#RowChangePage as RowChangePageModel',
          ChangeSetPage: '@tablelock/master-data#ChangeSetPage as ChangeSetPageModel',
          RevertResult: '@tablelock/master-data#RevertResult as RevertResultModel',
          RevertConflict: '@tablelock/master-data#RevertConflictRecord',
          SavedView: '@tablelock/master-data#SavedView as SavedViewModel',
          LockGrant: '@tablelock/lock#LockGrant as LockGrantModel',
          LockEvent: '@tablelock/lock#LockEventRecord',
          LockEventPage: '@tablelock/lock#LockEventPage as LockEventPageModel',
          Waiter: '@tablelock/lock#Waiter as WaiterModel',
          QueuePlace: '@tablelock/lock#QueuePlace as QueuePlaceModel',
          TablePolicy: '@tablelock/lock#TablePolicy as TablePolicyModel',
          TableFreeze: '@tablelock/lock#Freeze as FreezeModel',
          TakeOverSettings: '@tablelock/lock#TakeOverSettings as TakeOverSettingsModel',
          ChangeRequest: '@tablelock/master-data#ChangeRequestRecord',
          Edition: '@tablelock/master-data#EditionRecord as EditionModel',
          EditionFailedRow: '@tablelock/master-data#EditionFailedRow as EditionFailedRowModel',
          ChangeRequestRow: '@tablelock/master-data#ChangeRequestRow as ChangeRequestRowModel',
          ChangedRequestRow: '@tablelock/master-data#ChangedRequestRow as ChangedRequestRowModel',
          ChangeRequestPage: '@tablelock/master-data#ChangeRequestPage as ChangeRequestPageModel',
          SubmitChangeRequestResult: '@tablelock/master-data#SubmitResult as SubmitResultModel',
          ChangeRequestCheck: '@tablelock/master-data#RequestCheck as RequestCheckModel',
          Webhook: '@tablelock/outbox#WebhookEndpoint as WebhookModel',
        },
        scalars: {
          DateTime: 'Date',
          JSON: 'Record<string, string | null>',
          EventData: 'Record<string, unknown>',
        },
      },
    },
    // The operations tests send, written with `graphql()` from here, are typed like a client's:
    // responses and variables as the schema says, not as a hand-written interface claims.
    'test/generated/': {
      documents: ['test/**/*.ts', '!test/generated/**'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        // Sent as text by the test clients' fetch.
        documentMode: 'string',
        enumsAsTypes: true,
        useTypeImports: true,
        // As they arrive in JSON.
        scalars: {
          DateTime: 'string',
          JSON: 'Record<string, string | null>',
          EventData: 'Record<string, unknown>',
        },
      },
    },
  },
};

export default config;
