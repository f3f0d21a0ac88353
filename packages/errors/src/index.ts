export { DomainError } from './domainError';
export { MAX_HISTORY_PAGE, requireHistoryPage } from './requirePage';
