export { DomainError } from './domainError';
export { type HistoryPageRequest, MAX_HISTORY_PAGE, requireHistoryPage } from './requirePage';
