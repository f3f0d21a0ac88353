import { QueryClient } from '@tanstack/react-query';
import type { IGetRowsParams } from 'ag-grid-community';
import { describe, expect, it, vi } from 'vitest';
import { createLiveCacheUpdates } from '../src/app/createLiveCacheUpdates';
import type { LiveLockEvent } from '../src/live/liveContext';
import { ScheduledMarks } from '../src/table/asOf/scheduledMarks';
import { PendingChanges } from '../src/table/changes/PendingChanges';
import { createRowDatasource } from '../src/table/grid/createRowDatasource';
import {
  BLOCK_SIZE,
  firstRowsOptions,
  type RowsRead,
  takeFirstRows,
} from '../src/table/grid/firstRowsOptions';
import { rowsReadBefore } from '../src/table/grid/rowsKey';
import { rowsRevisionOptions } from '../src/table/grid/useRowsRevision';
import { ReferenceLabels } from '../src/table/reference/ReferenceLabels';
import { lockEvent } from './support/lockEvent';

const TABLE = 'products';
const FIRST_READ = { table: TABLE, sort: [], filter: [], offset: 0, limit: BLOCK_SIZE };

const page = (name: string): RowsRead['page'] => ({
  rows: [{ key: { id: '1' }, version: 'v1', values: { id: '1', name }, scheduledChanges: [] }],
  total: 1,
  startCursor: 'a',
  endCursor: 'b',
  referenceLabels: [],
});

/** Rows read ahead as the page's loader reads them, answered when the test says. */
function readAhead(queryClient: QueryClient) {
  let answer: (read: RowsRead) => void = () => {};
  void queryClient.prefetchQuery({
    ...firstRowsOptions(TABLE),
    queryFn: () => new Promise<RowsRead>((resolve) => (answer = resolve)),
  });
  return (read: RowsRead) => answer(read);
}

const saveAnnounced = (table: string): LiveLockEvent => ({
  ...lockEvent({ action: 'save', table, rowsChanged: 1 }),
  tables: [],
});

describe('the first rows read ahead of the grid', () => {
  it('are taken by the grid’s first read of them, once, and not by another read', async () => {
    const queryClient = new QueryClient();
    const answer = readAhead(queryClient);
    expect(
      takeFirstRows(queryClient, { ...FIRST_READ, sort: [{ column: 'name', direction: 'asc' }] }),
    ).toBeNull();
    expect(takeFirstRows(queryClient, { ...FIRST_READ, offset: BLOCK_SIZE })).toBeNull();
    const taken = takeFirstRows(queryClient, FIRST_READ);
    answer({ readFrom: 1, page: page('Bolt') });
    expect((await taken)?.page.rows[0]?.values).toEqual({ id: '1', name: 'Bolt' });
    expect(takeFirstRows(queryClient, FIRST_READ)).toBeNull();
  });

  it('are dropped when a save of their table is announced while they are read', async () => {
    const queryClient = new QueryClient();
    const live = createLiveCacheUpdates(queryClient);
    readAhead(queryClient);
    live.event(saveAnnounced('suppliers'));
    expect(queryClient.getQueryState(firstRowsOptions(TABLE).queryKey)).toBeDefined();
    live.event(saveAnnounced(TABLE));
    expect(takeFirstRows(queryClient, FIRST_READ)).toBeNull();
    // Taken already: the grid reads them anew.
    readAhead(queryClient);
    const taken = takeFirstRows(queryClient, FIRST_READ);
    live.event(saveAnnounced(TABLE));
    expect(await taken).toBeNull();
    live.cancel();
  });

  it('are shown, then read again, when the live connection was made after they were read', async () => {
    const queryClient = new QueryClient();
    const answer = readAhead(queryClient);
    const read = (liveSince: number | null) => {
      const refreshInfiniteCache = vi.fn();
      const shown = vi.fn();
      const rows = createRowDatasource({
        table: TABLE,
        keyColumns: ['id'],
        pending: new PendingChanges([]),
        labels: new ReferenceLabels(),
        onPage: shown,
        onError: (error) => expect.unreachable(String(error)),
        readAhead: (variables) => takeFirstRows(queryClient, variables),
        liveSince: () => liveSince,
        asOf: null,
        marks: new ScheduledMarks(),
      });
      rows.getRows({
        startRow: 0,
        endRow: BLOCK_SIZE,
        sortModel: [],
        filterModel: {},
        successCallback: () => {},
        failCallback: () => expect.unreachable('the read failed'),
        api: { refreshInfiniteCache },
      } as unknown as IGetRowsParams);
      return { refreshInfiniteCache, shown };
    };
    const connectedLater = read(2_000);
    answer({ readFrom: 1_000, page: page('Bolt') });
    await vi.waitFor(() => expect(connectedLater.shown).toHaveBeenCalledOnce());
    expect(connectedLater.refreshInfiniteCache).toHaveBeenCalledOnce();

    readAhead(queryClient)({ readFrom: 1_000, page: page('Bolt') });
    const connectedBefore = read(500);
    await vi.waitFor(() => expect(connectedBefore.shown).toHaveBeenCalledOnce());
    expect(connectedBefore.refreshInfiniteCache).not.toHaveBeenCalled();
  });
});

describe('rowsReadBefore', () => {
  it('names the grids that started reading before a connection was made, not those after', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(rowsRevisionOptions('early').queryKey, 1_000);
    queryClient.setQueryData(rowsRevisionOptions('late').queryKey, 3_000);
    const stale = queryClient.getQueryCache().findAll(rowsReadBefore(2_000));
    expect(stale.map((query) => query.queryKey)).toEqual([['rows', 'early']]);
  });
});
