import { describe, expect, it } from 'vitest';
import {
  type CalendarEdition,
  type CalendarRequest,
  calendarDays,
} from '../src/calendar/calendarDays';
import { localDay } from '../src/schedule/localDateTime';

const request = (id: string, table: string, at: string, editionId: string | null = null) =>
  ({
    id,
    table,
    author: 'alice',
    state: 'scheduled',
    comment: null,
    effectiveAt: at,
    editionId,
  }) satisfies CalendarRequest;

const edition = (id: string, at: string, tables: string[]) =>
  ({
    id,
    name: `edition ${id}`,
    effectiveAt: at,
    state: 'scheduled',
    createdBy: 'bob',
    appliedAt: null,
    lateBySeconds: null,
    failure: null,
    requests: tables.map((table, index) => ({
      id: `${id}${index}`,
      table,
      author: 'bob',
      state: 'scheduled' as const,
    })),
  }) satisfies CalendarEdition;

// Noon UTC and a day apart: whatever the machine's time zone, each is on a day of its own.
const MONDAY = '2027-01-04T12:00:00Z';
const MONDAY_LATER = '2027-01-04T12:30:00Z';
const TUESDAY = '2027-01-05T12:00:00Z';
const all = { table: null, editionId: null };

const shape = (days: ReturnType<typeof calendarDays>) =>
  days.map(({ day, entries }) => [
    day,
    entries.map((entry) => (entry.kind === 'request' ? entry.request.id : `e${entry.edition.id}`)),
  ]);

describe('calendarDays', () => {
  it('groups requests and editions by local day, earliest first; an edition holds its requests', () => {
    const days = calendarDays(
      [
        request('2', 'products', TUESDAY),
        request('1', 'products', MONDAY_LATER),
        request('3', 'regions', MONDAY, '9'),
      ],
      [edition('9', MONDAY, ['regions'])],
      all,
    );
    expect(shape(days)).toEqual([
      [localDay(MONDAY), ['e9', '1']],
      [localDay(TUESDAY), ['2']],
    ]);
  });

  it('with a table: its requests and the editions that change it', () => {
    const days = calendarDays(
      [request('1', 'products', MONDAY), request('2', 'regions', MONDAY)],
      [edition('8', TUESDAY, ['regions']), edition('9', TUESDAY, ['products'])],
      { table: 'products', editionId: null },
    );
    expect(shape(days)).toEqual([
      [localDay(MONDAY), ['1']],
      [localDay(TUESDAY), ['e9']],
    ]);
  });

  it('with an edition: only it', () => {
    const days = calendarDays(
      [request('1', 'products', MONDAY)],
      [edition('8', MONDAY, ['regions']), edition('9', TUESDAY, ['products'])],
      { table: null, editionId: '9' },
    );
    expect(shape(days)).toEqual([[localDay(TUESDAY), ['e9']]]);
  });
});
