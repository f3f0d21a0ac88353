import type { CalendarRequestsQuery, EditionsQuery } from '../generated/graphql';
import { localDay } from '../schedule/localDateTime';

export type CalendarRequest = CalendarRequestsQuery['changeRequests']['requests'][number];
export type CalendarEdition = EditionsQuery['editions'][number];

/** What takes effect at one time: a request on its own, or an edition with its requests. */
export type CalendarEntry =
  | { kind: 'request'; at: string; request: CalendarRequest }
  | { kind: 'edition'; at: string; edition: CalendarEdition };

export interface CalendarDay {
  /** The local day, `YYYY-MM-DD`. */
  day: string;
  entries: CalendarEntry[];
}

export interface CalendarFilter {
  table: string | null;
  editionId: string | null;
}

/**
 * The requests and editions that take effect on a date, by local day and time, earliest first.
 * A request of an edition shows within its edition. With a table, the editions that change it;
 * with an edition, only it.
 */
export function calendarDays(
  requests: readonly CalendarRequest[],
  editions: readonly CalendarEdition[],
  filter: CalendarFilter,
): CalendarDay[] {
  const entries: CalendarEntry[] = [
    ...requests
      .filter((request) => request.editionId == null && filter.editionId === null)
      .filter((request) => filter.table === null || request.table === filter.table)
      .flatMap((request) =>
        request.effectiveAt ? [{ kind: 'request' as const, at: request.effectiveAt, request }] : [],
      ),
    ...editions
      .filter((edition) => filter.editionId === null || edition.id === filter.editionId)
      .filter(
        (edition) =>
          filter.table === null ||
          edition.requests.some((request) => request.table === filter.table),
      )
      .map((edition) => ({ kind: 'edition' as const, at: edition.effectiveAt, edition })),
  ];
  entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const days: CalendarDay[] = [];
  for (const entry of entries) {
    const day = localDay(entry.at);
    const last = days.at(-1);
    if (last?.day === day) last.entries.push(entry);
    else days.push({ day, entries: [entry] });
  }
  return days;
}
