import type {
  MutationResolvers,
  QueryResolvers,
  Role,
  SubscriptionResolvers,
} from './generated/graphql';

/**
 * Who may call a root field: a role or above, or anyone. `anyone` still hears about
 * credentials that were sent and refused; `anyoneWhateverTheCredentials` never does, so that
 * an ended session cannot keep a browser from logging in again, or out.
 */
export type FieldRequirement = Role | 'anyone' | 'anyoneWhateverTheCredentials';

/**
 * The one map of who may call each field of Query, Mutation and Subscription, enforced for
 * every field by enforceFieldAccess and requireAuthentication. A field of the SDL missing here
 * fails the type check.
 */
export const FIELD_ACCESS = {
  Query: {
    tables: 'viewer',
    tablePage: 'viewer',
    tablesNamed: 'viewer',
    table: 'viewer',
    me: 'anyone',
    authProviders: 'anyoneWhateverTheCredentials',
    users: 'admin',
    apiKeys: 'admin',
    rows: 'viewer',
    newRowKeys: 'editor',
    checkRows: 'editor',
    lockEvents: 'viewer',
    securityEvents: 'admin',
    lockSettings: 'admin',
    importReport: 'editor',
    tablePolicies: 'admin',
    writeGuardStatus: 'admin',
    takeOverSettings: 'viewer',
    tableChanges: 'viewer',
    tableChange: 'viewer',
    rowHistory: 'viewer',
    referenceOptions: 'viewer',
    gridLayout: 'viewer',
    savedViews: 'viewer',
    savedView: 'viewer',
    changeRequests: 'viewer',
    changeRequest: 'viewer',
    editions: 'viewer',
    edition: 'viewer',
    changeRequestsToDecide: 'viewer',
    changeFeed: 'admin',
    webhooks: 'admin',
    webhookEventTypes: 'admin',
  },
  Mutation: {
    createWebhook: 'admin',
    updateWebhook: 'admin',
    deleteWebhook: 'admin',
    resendWebhookDelivery: 'admin',
    UpdateTableStatusWithLock: 'editor',
    syncTableRegistry: 'admin',
    forceRelease: 'admin',
    acquireTableLock: 'editor',
    acquireTableLocks: 'editor',
    renewTableLock: 'editor',
    releaseTableLock: 'editor',
    takeOverTableLock: 'editor',
    saveRows: 'editor',
    importRows: 'editor',
    applyImport: 'editor',
    login: 'anyoneWhateverTheCredentials',
    logout: 'anyoneWhateverTheCredentials',
    createUser: 'admin',
    updateUser: 'admin',
    createApiKey: 'admin',
    revokeApiKey: 'admin',
    setIdleLimit: 'admin',
    setTableIdleLimit: 'admin',
    setTablePolicy: 'admin',
    freezeTables: 'admin',
    thawTables: 'admin',
    setTakeOverRule: 'admin',
    revertChange: 'editor',
    saveGridLayout: 'viewer',
    saveView: 'viewer',
    deleteSavedView: 'viewer',
    submitChangeRequest: 'editor',
    approveChangeRequest: 'editor',
    rejectChangeRequest: 'editor',
    sendBackChangeRequest: 'editor',
    withdrawChangeRequest: 'editor',
    moveChangeRequest: 'editor',
    createEdition: 'editor',
  },
  Subscription: {
    lockChanged: 'viewer',
    waitForTable: 'editor',
    changeRequestChanged: 'viewer',
  },
} as const satisfies {
  Query: Record<keyof QueryResolvers, FieldRequirement>;
  Mutation: Record<keyof MutationResolvers, FieldRequirement>;
  Subscription: Record<keyof SubscriptionResolvers, FieldRequirement>;
};

export type RootType = keyof typeof FIELD_ACCESS;

/** The requirement of `field` of `type`; undefined for a field the map does not name. */
export function fieldRequirement(type: RootType, field: string): FieldRequirement | undefined {
  return (FIELD_ACCESS[type] as Record<string, FieldRequirement>)[field];
}
