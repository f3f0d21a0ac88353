export { AS_OF_NOW_SECONDS, type AsOfQuery, readRowsAsOf } from './asOf/rowsAsOf';
export { type Caption, captionsOf } from './captions';
export { applyScheduledRequest, type ScheduledRun } from './changeRequests/applyScheduledRequest';
export type {
  ChangedRequestRow,
  ChangeRequestRecord,
  ChangeRequestRow,
  ScheduleFailure,
} from './changeRequests/changeRequestRecord';
export {
  checkChangeRequest,
  MAX_CHECKED_ROWS,
  type RequestCheck,
  type RequestRowProblem,
} from './changeRequests/checkChangeRequest';
export type { RequestActor } from './changeRequests/core/approverRules';
export type { ChangeRequestState } from './changeRequests/core/changeRequestState';
export {
  type DecideRequest,
  decideChangeRequest,
  HANDED_BACK_LEASE_SECONDS,
  type RequestDecision,
} from './changeRequests/decideChangeRequest';
export { MAX_YEARS_AHEAD } from './changeRequests/effectiveTime';
export { mayDecideRequest } from './changeRequests/mayDecideRequest';
export { type MoveRequest, moveChangeRequest } from './changeRequests/moveChangeRequest';
export { readChangeRequestGauges } from './changeRequests/readChangeRequestGauges';
export {
  type ChangeRequestFilter,
  type ChangeRequestPage,
  readChangeRequest,
  readChangeRequests,
  readRequestByToken,
  readRequestsToDecide,
} from './changeRequests/readChangeRequests';
export { readScheduledRequests, type ScheduledDue } from './changeRequests/readScheduledRequests';
export { scheduleEditor } from './changeRequests/scheduledWrite';
export {
  type SubmitRequest,
  type SubmitResult,
  submitChangeRequest,
} from './changeRequests/submitChangeRequest';
export { type DueSoonWarning, warnTableHolders } from './changeRequests/warnTableHolders';
export { checkRows, type RowCheck } from './checkRows';
export {
  applyScheduledEdition,
  type EditionRun,
  editionEditor,
} from './editions/applyScheduledEdition';
export { createEdition } from './editions/createEdition';
export type {
  EditionFailedRow,
  EditionFailure,
  EditionRecord,
  EditionState,
} from './editions/editionRecord';
export { readEdition, readEditionRequests, readEditions } from './editions/readEditions';
export {
  describeViolation,
  type RowViolation,
  type WrittenRow,
} from './errors/describeViolation';
export type { RowErrorDetails, RowErrorKind } from './errors/rowErrorDetails';
export {
  ROW_ERROR_SENTENCES,
  rowErrorSentence,
  SENTENCE_LANGUAGES,
  type SentenceLanguage,
  sentenceLanguage,
} from './errors/rowErrorSentences';
export { guardFormula, guardFormulaText } from './formulaText';
export {
  currentChangeSetId,
  declareOwnWrite,
  type OwnWrite,
  type OwnWriteKind,
} from './guard/ownWrite';
export { type HistoryPurge, purgeHistory } from './guard/purgeHistory';
export { type HistoryGauges, readHistoryGauges } from './guard/readHistoryGauges';
export { readWriteGuardStatus, type WriteGuardStatus } from './guard/readWriteGuardStatus';
export {
  syncWriteGuards,
  type UnguardedTable,
  type WriteGuardSync,
} from './guard/syncWriteGuards';
export { WRITE_GUARDS, WriteGuard } from './guard/writeGuard';
export type {
  ChangeKind,
  ChangeSetRecord,
  RowChangeRecord,
  RowOperation,
} from './history/historyRecords';
export { type RowChangePage, readChangeRows, readRowHistory } from './history/readRowChanges';
export {
  type ChangeSetPage,
  readTableChange,
  readTableChanges,
} from './history/readTableChanges';
export {
  MAX_REVERT_ROWS,
  type RevertConflictRecord,
  type RevertRequest,
  type RevertResult,
  revertChange,
} from './history/revertChange';
export { type ApplyImportRequest, applyImport } from './import/applyImport';
export { assertMayImport, type ImportCaller } from './import/assertMayImport';
export type { ColumnMapping } from './import/columnMapping';
export { dryRunImport, type ImportRequest } from './import/dryRunImport';
export { importErrorText } from './import/importErrorText';
export type { ImportFormat } from './import/importFile';
export { tooLarge as importTooLarge } from './import/importFileErrors';
export { importLabelColumn } from './import/importLabelColumn';
export {
  IMPORT_LIMITS,
  type ImportLimits,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
} from './import/importLimits';
export type {
  ImportCellError,
  ImportCounts,
  ImportErrorCode,
  ImportOutcome,
  ImportReport,
  ImportRow,
} from './import/importReport';
export { type LabelledImportRow, labelImportRows } from './import/importRowLabels';
export {
  type ImportRowQuery,
  readImportErrors,
  readImportReport,
  readImportRows,
} from './import/readImportReport';
export { MasterDataError, type MasterDataErrorCode } from './masterDataError';
export { MAX_NEW_ROW_KEYS, readNewRowKeys } from './newRowKeys';
export {
  type MasterRow,
  type RowPage,
  type RowQuery,
  type RowValues,
  readRows,
  type ScheduledCellChange,
} from './readRows';
export { requireLabelColumn } from './reference/labelColumn';
export {
  type ReferenceLabels,
  readReferenceLabels,
} from './reference/referenceLabels';
export {
  MAX_REFERENCE_OPTIONS,
  type ReferenceOption,
  type ReferenceOptionPage,
  type ReferenceOptionQuery,
  readReferenceOptions,
  referenceSearchStatements,
} from './reference/referenceOptions';
export type { ReferenceTarget } from './reference/referenceTarget';
export { openRowExport, type RowExport } from './rowExport';
export { requireRowLockColumn } from './rowScopes/rowLockColumn';
export type { FilterOperator, RowView, SortDirection } from './rowView';
export {
  type RowChangeKind,
  type RowChanges,
  type RowError,
  type RowErrorCode,
  type SaveResult,
  saveRows,
} from './saveRows';
export {
  planSortIndex,
  SORT_INDEX_MIN_ROWS,
  SORT_INDEXES_PER_TABLE,
  type SortIndexPlan,
} from './sortIndex';
export type {
  ColumnKind,
  MasterTable,
  TableColumn,
} from './tableColumns';
export type { ColumnLayout } from './views/columnLayout';
export { readGridLayout, saveGridLayout } from './views/gridLayouts';
export {
  deleteSavedView,
  listSavedViews,
  MAX_SAVED_VIEWS_PER_TABLE,
  readSavedView,
  type SavedView,
  type SavedViewInput,
  saveView,
} from './views/savedViews';
