import {
  keepPreviousData,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
  useQuery,
} from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useDebouncedValue } from '../ui/useDebouncedValue';
import { type HistoryFilters, readHistoryFilters, writeHistoryFilters } from './historyFilters';

const PAGE_SIZE = 20;
const TYPING_PAUSE_MS = 300;

/** What the API's history queries take: a filter and a page. */
export interface HistoryRequest<Filter> {
  filter: Filter;
  offset: number;
  limit: number;
  before: string | null;
  after: string | null;
}

type EventPage<Event> = {
  events: Event[];
  total: number;
  totalCapped: boolean;
  hasOlder: boolean;
  hasNewer: boolean;
};

interface HistoryPageOptions<Action extends string, Filter, Event, Key extends QueryKey> {
  /** The page's query (key and fetcher) for a request. */
  pageQuery: (
    request: HistoryRequest<Filter>,
  ) => UseQueryOptions<EventPage<Event>, Error, EventPage<Event>, Key>;
  /** The actions this history has (others in the URL belong to another one). */
  actions: readonly Action[];
  toFilter: (filters: HistoryFilters<Action>) => Filter;
  refetchInterval: number | false;
}

export interface HistoryPage<Action extends string, Event> {
  filters: HistoryFilters<Action>;
  /** Shows other filters or another page (in the URL, replacing the entry). */
  show: (filters: HistoryFilters<Action>) => void;
  query: UseQueryResult<EventPage<Event>>;
  pageSize: number;
}

/**
 * The page of an audit history that the filters in the URL ask for, fetched from the server.
 * Typing in the user field asks once it pauses; a new filter or page keeps the rows shown
 * until its answer arrives (no flicker).
 */
export function useHistoryPage<Action extends string, Filter, Event, Key extends QueryKey>(
  options: HistoryPageOptions<Action, Filter, Event, Key>,
): HistoryPage<Action, Event> {
  const [params, setParams] = useSearchParams();
  const filters = readHistoryFilters(params, options.actions);
  const user = useDebouncedValue(filters.user, TYPING_PAUSE_MS);
  const byCursor = filters.before !== '' || filters.after !== '';
  const request = {
    filter: options.toFilter({ ...filters, user }),
    // A link from before the pages had cursors says only its page number.
    offset: byCursor ? 0 : (filters.page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
    before: filters.before || null,
    after: filters.after || null,
  };
  const query = useQuery({
    ...options.pageQuery(request),
    placeholderData: keepPreviousData,
    refetchInterval: options.refetchInterval,
  });
  const show = (next: HistoryFilters<Action>) =>
    setParams(writeHistoryFilters(next), { replace: true, preventScrollReset: true });
  return { filters, show, query, pageSize: PAGE_SIZE };
}
