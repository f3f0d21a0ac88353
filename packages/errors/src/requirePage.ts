import { DomainError } from './domainError';

/** The most entries one page of a history may ask for. */
export const MAX_HISTORY_PAGE = 200;

/** A history page request (lock events, security events) within bounds, else BAD_USER_INPUT. */
export function requireHistoryPage(page: { offset: number; limit: number }): void {
  const { offset, limit } = page;
  const valid =
    Number.isInteger(offset) &&
    offset >= 0 &&
    Number.isInteger(limit) &&
    limit >= 1 &&
    limit <= MAX_HISTORY_PAGE;
  if (!valid) {
    throw new DomainError('BAD_USER_INPUT', `offset ≥ 0 and 1 ≤ limit ≤ ${MAX_HISTORY_PAGE}.`);
  }
}
