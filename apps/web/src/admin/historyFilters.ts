import type {
  LockAction,
  LockEventFilter,
  SecurityAction,
  SecurityEventFilter,
} from '../generated/graphql';

// Records, so that the compiler insists on every action the API knows.
const LOCK_ACTION_SET: Record<LockAction, true> = {
  acquire: true,
  release: true,
  expire: true,
  force_release: true,
  take_over: true,
  denied: true,
  save: true,
  queued: true,
  dequeued: true,
  freeze: true,
  thaw: true,
  unlocked_write: true,
  request_submitted: true,
  request_approved: true,
  request_rejected: true,
  request_sent_back: true,
  request_withdrawn: true,
  request_scheduled: true,
  request_moved: true,
  request_applied: true,
  request_failed: true,
  request_due_soon: true,
};
export const LOCK_ACTIONS = Object.keys(LOCK_ACTION_SET) as LockAction[];

const SECURITY_ACTION_SET: Record<SecurityAction, true> = {
  login: true,
  login_failed: true,
  logout: true,
  user_created: true,
  role_changed: true,
  password_changed: true,
  user_disabled: true,
  user_enabled: true,
  api_key_created: true,
  api_key_revoked: true,
  lock_settings_changed: true,
  table_policy_changed: true,
  take_over_rule_changed: true,
  sort_index_built: true,
  sort_index_dropped: true,
  history_purged: true,
  webhook_disabled: true,
  webhook_created: true,
  webhook_changed: true,
  webhook_deleted: true,
};
export const SECURITY_ACTIONS = Object.keys(SECURITY_ACTION_SET) as SecurityAction[];

/**
 * An audit history's filters as the admin set them (the lock history's or the security
 * events'). They live in the page's URL, so a reload or a shared link shows the same history;
 * `from` and `to` are `datetime-local` values (the user's local time, to the minute).
 */
export interface HistoryFilters<Action extends string> {
  /** Lock history only. */
  table: string;
  user: string;
  actions: Action[];
  from: string;
  to: string;
  /** 1-based: where the page is, for the pager's range. */
  page: number;
  /** An event's id: the page holds the events older than it ('' for none). */
  before: string;
  /** An event's id: the page holds the events newer than it ('' for none). */
  after: string;
}

/** The filters in `params`; actions other than `known` (another history's) are ignored. */
export function readHistoryFilters<Action extends string>(
  params: URLSearchParams,
  known: readonly Action[],
): HistoryFilters<Action> {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  const isKnown = (value: string): value is Action => (known as readonly string[]).includes(value);
  return {
    table: params.get('table') ?? '',
    user: params.get('user') ?? '',
    actions: params.getAll('action').filter(isKnown),
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    page: Number.isInteger(page) && page > 1 ? page : 1,
    before: eventId(params.get('before')),
    after: eventId(params.get('after')),
  };
}

export function writeHistoryFilters(filters: HistoryFilters<string>): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['table', 'user', 'from', 'to'] as const) {
    if (filters[key] !== '') params.set(key, filters[key]);
  }
  for (const action of filters.actions) params.append('action', action);
  if (filters.page > 1) params.set('page', String(filters.page));
  for (const key of ['before', 'after'] as const) {
    if (filters[key] !== '') params.set(key, filters[key]);
  }
  return params;
}

/** An event id from the URL, or '' if it is not one (the API would refuse it). */
const eventId = (value: string | null): string =>
  value && /^[1-9]\d{0,18}$/.test(value) ? value : '';

const MINUTE_MS = 60_000;

/** A `datetime-local` value as an instant, `minutes` later; null if it is not a valid one. */
function instant(local: string, minutes = 0): string | null {
  const time = new Date(local).getTime();
  return local === '' || Number.isNaN(time)
    ? null
    : new Date(time + minutes * MINUTE_MS).toISOString();
}

/** What both histories filter on, as the API takes it. */
function commonFilter<Action extends string>(filters: HistoryFilters<Action>) {
  return {
    user: filters.user.trim() || null,
    actions: filters.actions.length > 0 ? filters.actions : null,
    from: instant(filters.from),
    // The API's `to` is exclusive and the field shows minutes: "until 10:05" includes 10:05:59.
    to: instant(filters.to, 1),
  };
}

export function toLockEventFilter(filters: HistoryFilters<LockAction>): LockEventFilter {
  return { table: filters.table || null, ...commonFilter(filters) };
}

export function toSecurityEventFilter(
  filters: HistoryFilters<SecurityAction>,
): SecurityEventFilter {
  return commonFilter(filters);
}
