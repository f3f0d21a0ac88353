import { DateTimeResolver, JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import type { Resolvers } from '../generated/graphql';
import { columnCaptions, tableCaptions } from './captions';
import { changeFeed } from './changeFeed';
import { changeRequestChanged } from './changeRequestChanged';
import {
  approveChangeRequestResolver,
  ChangeRequest,
  changeRequest,
  changeRequests,
  changeRequestsToDecide,
  moveChangeRequestResolver,
  rejectChangeRequestResolver,
  sendBackChangeRequestResolver,
  submitChangeRequestResolver,
  withdrawChangeRequestResolver,
} from './changeRequests';
import { createEditionResolver, Edition, EditionFailedRow, edition, editions } from './editions';
import { tokenFor } from './fencingTokens';
import {
  freezeTablesResolver,
  setTablePolicyResolver,
  setTakeOverRuleResolver,
  TablePolicy,
  tablePolicies,
  takeOverSettings,
  thawTablesResolver,
} from './governance';
import {
  ChangeSet,
  RevertConflict,
  RowChange,
  revertChangeResolver,
  rowHistory,
  tableChange,
  tableChanges,
} from './history';
import {
  apiKeys,
  authProviders,
  createApiKeyResolver,
  createUserResolver,
  login,
  logout,
  me,
  revokeApiKeyResolver,
  updateUserResolver,
  users,
} from './identity';
import { applyImportResolver, ImportReport, importReport, importRowsResolver } from './importRows';
import {
  acquireTableLockResolver,
  acquireTableLocksResolver,
  LockGrant,
  lockEvents,
  releaseTableLockResolver,
  renewTableLockResolver,
  takeOverTableLockResolver,
} from './lifecycle';
import { lockChanged } from './lockChanged';
import { FKResultTableStatus, ResultTableStatus } from './lockOutcome';
import { lockSettings, setIdleLimit, setTableIdleLimit } from './lockSettings';
import { checkRowsResolver, newRowKeys, Row, RowPage, rows, saveRowsResolver } from './masterData';
import { waitForTable } from './queue';
import { referenceLabels, referenceOptions } from './referenceOptions';
import { securityEvents } from './securityEvents';
import {
  forceRelease,
  RowLock,
  syncTableRegistryResolver,
  TableInfo,
  table,
  tablePage,
  tables,
  tablesNamed,
} from './tables';
import { UpdateTableStatusWithLock } from './updateTableStatusWithLock';
import {
  deleteSavedViewResolver,
  gridLayout,
  savedView,
  savedViews,
  saveGridLayoutResolver,
  saveViewResolver,
} from './views';
import {
  createWebhookResolver,
  deleteWebhookResolver,
  resendWebhookDeliveryResolver,
  updateWebhookResolver,
  Webhook,
  webhookEventTypes,
  webhooks,
} from './webhooks';
import { writeGuardStatus } from './writeGuardStatus';

export const resolvers: Resolvers = {
  DateTime: DateTimeResolver,
  JSON: JSONResolver,
  EventData: JSONObjectResolver,
  Webhook,
  Query: {
    tables,
    changeFeed,
    webhooks,
    webhookEventTypes,
    tablePage,
    tablesNamed,
    table,
    me,
    authProviders,
    users,
    apiKeys,
    rows,
    newRowKeys,
    checkRows: checkRowsResolver,
    lockEvents,
    securityEvents,
    lockSettings,
    importReport,
    tablePolicies,
    writeGuardStatus,
    takeOverSettings,
    tableChanges,
    tableChange,
    rowHistory,
    referenceOptions,
    gridLayout,
    savedViews,
    savedView,
    changeRequests,
    changeRequest,
    editions,
    edition,
    changeRequestsToDecide,
  },
  Mutation: {
    createWebhook: createWebhookResolver,
    updateWebhook: updateWebhookResolver,
    deleteWebhook: deleteWebhookResolver,
    resendWebhookDelivery: resendWebhookDeliveryResolver,
    UpdateTableStatusWithLock,
    syncTableRegistry: syncTableRegistryResolver,
    forceRelease,
    acquireTableLock: acquireTableLockResolver,
    acquireTableLocks: acquireTableLocksResolver,
    renewTableLock: renewTableLockResolver,
    releaseTableLock: releaseTableLockResolver,
    takeOverTableLock: takeOverTableLockResolver,
    saveRows: saveRowsResolver,
    importRows: importRowsResolver,
    applyImport: applyImportResolver,
    login,
    logout,
    createUser: createUserResolver,
    updateUser: updateUserResolver,
    createApiKey: createApiKeyResolver,
    revokeApiKey: revokeApiKeyResolver,
    setIdleLimit,
    setTableIdleLimit,
    setTablePolicy: setTablePolicyResolver,
    freezeTables: freezeTablesResolver,
    thawTables: thawTablesResolver,
    setTakeOverRule: setTakeOverRuleResolver,
    revertChange: revertChangeResolver,
    saveGridLayout: saveGridLayoutResolver,
    saveView: saveViewResolver,
    deleteSavedView: deleteSavedViewResolver,
    submitChangeRequest: submitChangeRequestResolver,
    approveChangeRequest: approveChangeRequestResolver,
    rejectChangeRequest: rejectChangeRequestResolver,
    sendBackChangeRequest: sendBackChangeRequestResolver,
    withdrawChangeRequest: withdrawChangeRequestResolver,
    moveChangeRequest: moveChangeRequestResolver,
    createEdition: createEditionResolver,
  },
  TableInfo,
  RowLock,
  TablePolicy,
  ResultTableStatus,
  FKResultTableStatus,
  RowPage: { ...RowPage, referenceLabels, tableCaptions },
  Row,
  Column: { captions: columnCaptions },
  ImportReport,
  LockGrant,
  ChangeSet,
  RowChange,
  RevertConflict,
  ChangeRequest,
  Edition,
  EditionFailedRow,
  LockEvent: {
    table: (event) => event.tableName,
    token: (event, _args, context) =>
      tokenFor(context, event.token, [event.editor, event.previousEditor]),
  },
  // The settings a policy or rule change gave, as the JSON scalar carries them.
  SecurityEvent: { changes: (event) => event.changes as Record<string, string | null> | null },
  Subscription: { lockChanged, waitForTable, changeRequestChanged },
};
