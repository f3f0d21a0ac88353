import { DomainError } from './domainError';

/** The most entries one page of a history may ask for. */
export const MAX_HISTORY_PAGE = 200;

/** A history page: `limit` events after `offset`, or next to the event `before` or `after` names. */
export interface HistoryPageRequest {
  offset: number;
  limit: number;
  /** An event's id: the page holds the events older than it. */
  before?: string | null;
  /** An event's id: the page holds the events newer than it. */
  after?: string | null;
}

const EVENT_ID = /^[1-9]\d{0,18}$/;

/** A history page request (lock events, security events) within bounds, else BAD_USER_INPUT. */
export function requireHistoryPage(page: HistoryPageRequest): void {
  const { offset, limit, before, after } = page;
  const valid =
    Number.isInteger(offset) &&
    offset >= 0 &&
    Number.isInteger(limit) &&
    limit >= 1 &&
    limit <= MAX_HISTORY_PAGE;
  if (!valid) {
    throw new DomainError('BAD_USER_INPUT', `offset ≥ 0 and 1 ≤ limit ≤ ${MAX_HISTORY_PAGE}.`);
  }
  for (const cursor of [before, after]) {
    if (cursor != null && !EVENT_ID.test(cursor)) {
      throw new DomainError('BAD_USER_INPUT', 'before and after are event ids.');
    }
  }
  if (before != null && after != null) {
    throw new DomainError('BAD_USER_INPUT', 'Give before or after, not both.');
  }
  if ((before != null || after != null) && offset !== 0) {
    throw new DomainError('BAD_USER_INPUT', 'Give offset or before/after, not both.');
  }
}
