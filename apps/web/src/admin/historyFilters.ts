import type { LockAction, LockEventFilter } from '../generated/graphql';

// A record, so that the compiler insists on every action the API knows.
const ACTION_SET: Record<LockAction, true> = {
  acquire: true,
  release: true,
  expire: true,
  force_release: true,
  take_over: true,
  denied: true,
  save: true,
};
export const LOCK_ACTIONS = Object.keys(ACTION_SET) as LockAction[];

function isLockAction(value: string): value is LockAction {
  return Object.hasOwn(ACTION_SET, value);
}

/**
 * The audit history's filters as the admin set them. They live in the page's URL, so a reload
 * or a shared link shows the same history; `from` and `to` are `datetime-local` values (the
 * user's local time, to the minute).
 */
export interface HistoryFilters {
  table: string;
  user: string;
  actions: LockAction[];
  from: string;
  to: string;
  /** 1-based. */
  page: number;
}

export function readHistoryFilters(params: URLSearchParams): HistoryFilters {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  return {
    table: params.get('table') ?? '',
    user: params.get('user') ?? '',
    actions: params.getAll('action').filter(isLockAction),
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

export function writeHistoryFilters(filters: HistoryFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['table', 'user', 'from', 'to'] as const) {
    if (filters[key] !== '') params.set(key, filters[key]);
  }
  for (const action of filters.actions) params.append('action', action);
  if (filters.page > 1) params.set('page', String(filters.page));
  return params;
}

const MINUTE_MS = 60_000;

/** A `datetime-local` value as an instant, `minutes` later; null if it is not a valid one. */
function instant(local: string, minutes = 0): string | null {
  const time = new Date(local).getTime();
  return local === '' || Number.isNaN(time)
    ? null
    : new Date(time + minutes * MINUTE_MS).toISOString();
}

/** The filters as the API takes them. */
export function toLockEventFilter(filters: HistoryFilters): LockEventFilter {
  return {
    table: filters.table || null,
    user: filters.user.trim() || null,
    actions: filters.actions.length > 0 ? filters.actions : null,
    from: instant(filters.from),
    // The API's `to` is exclusive and the field shows minutes: "until 10:05" includes 10:05:59.
    to: instant(filters.to, 1),
  };
}
