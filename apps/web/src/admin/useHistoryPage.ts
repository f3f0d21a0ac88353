import { keepPreviousData, type UseQueryResult, useQuery } from '@tanstack/react-query';
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
}

interface HistoryPageOptions<Action extends string, Filter, Event> {
  queryKey: readonly unknown[];
  /** The actions this history has (others in the URL belong to another one). */
  actions: readonly Action[];
  toFilter: (filters: HistoryFilters<Action>) => Filter;
  fetchPage: (request: HistoryRequest<Filter>) => Promise<{ events: Event[]; total: number }>;
  refetchInterval: number | false;
}

export interface HistoryPage<Action extends string, Event> {
  filters: HistoryFilters<Action>;
  /** Shows other filters or another page (in the URL, replacing the entry). */
  show: (filters: HistoryFilters<Action>) => void;
  query: UseQueryResult<{ events: Event[]; total: number }>;
  pageSize: number;
}

/**
 * The page of an audit history that the filters in the URL ask for, fetched from the server.
 * Typing in the user field asks once it pauses; a new filter or page keeps the rows shown
 * until its answer arrives (no flicker).
 */
export function useHistoryPage<Action extends string, Filter, Event>(
  options: HistoryPageOptions<Action, Filter, Event>,
): HistoryPage<Action, Event> {
  const [params, setParams] = useSearchParams();
  const filters = readHistoryFilters(params, options.actions);
  const user = useDebouncedValue(filters.user, TYPING_PAUSE_MS);
  const request = {
    filter: options.toFilter({ ...filters, user }),
    offset: (filters.page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
  };
  const query = useQuery({
    queryKey: [...options.queryKey, request],
    queryFn: () => options.fetchPage(request),
    placeholderData: keepPreviousData,
    refetchInterval: options.refetchInterval,
  });
  const show = (next: HistoryFilters<Action>) =>
    setParams(writeHistoryFilters(next), { replace: true, preventScrollReset: true });
  return { filters, show, query, pageSize: PAGE_SIZE };
}
