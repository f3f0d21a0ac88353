import type { LiveLockEvent } from '../live/liveContext';
import type { TablePageData, TablePageView } from './useTablePage';
import type { TableInfo } from './useTables';

/** A table's lock state as a live event tells it. */
export type TableState = NonNullable<LiveLockEvent['tables']>[number];

export interface PatchedRows {
  rows: TableInfo[];
  /**
   * Rows whose editBlock or line may have changed: it is decided per caller by the API, so
   * they are read again (tablesNamed) rather than worked out here.
   */
  reread: string[];
}

/** `row` with `state` applied, if the state is newer. */
function withState(row: TableInfo, state: TableState | undefined): TableInfo {
  if (!state || state.version <= row.version) return row;
  const { name: _name, previousStatus: _previous, ...lockState } = state;
  return { ...row, ...lockState };
}

/**
 * `rows` patched with the event's table states. `everyTable`: the rows are the whole registry
 * (the `tables` list), so who may be in line behind a queued table is known from them; for a
 * page, a change of the line rereads the page's rows.
 */
export function patchTableRows(
  rows: readonly TableInfo[],
  event: LiveLockEvent,
  everyTable: boolean,
): PatchedRows {
  const states = new Map((event.tables ?? []).map((state) => [state.name, state]));
  if (states.size > 0) {
    const touches = (name: string) => states.has(name);
    return {
      rows: rows.map((row) => withState(row, states.get(row.name))),
      reread: rows
        .filter(
          (row) => touches(row.name) || row.references.some(touches) || row.lockedBy.some(touches),
        )
        .map((row) => row.name),
    };
  }
  if (event.action !== 'queued' && event.action !== 'dequeued')
    return { rows: [...rows], reread: [] };
  if (!everyTable) return { rows: [...rows], reread: rows.map((row) => row.name) };
  // Those in line for event.table go before anyone who wants it, its FK targets or a table
  // referencing it (see wantsTable in the lock domain).
  const wanted = rows.find((row) => row.name === event.table);
  return {
    rows: [...rows],
    reread: rows
      .filter(
        (row) =>
          row.name === event.table ||
          row.references.includes(event.table) ||
          (wanted?.references.includes(row.name) ?? false),
      )
      .map((row) => row.name),
  };
}

export interface PatchedPage {
  page: TablePageData;
  /** As in PatchedRows. */
  reread: string[];
  /** A table entered or left the page's status filter: only the API knows where it goes. */
  membershipChanged: boolean;
}

const matchesSearch = (view: TablePageView, name: string) =>
  name.toLowerCase().includes(view.search.toLowerCase());

/**
 * A page of the tables page patched with the event: its rows, and its counts per status (from
 * each table's status before and after, for tables matching the page's search).
 */
export function patchTablePage(
  page: TablePageData,
  view: TablePageView,
  event: LiveLockEvent,
): PatchedPage {
  const counts = { ...page.counts };
  let total = page.total;
  let membershipChanged = false;
  const shown = new Map(page.tables.map((row) => [row.name, row]));
  for (const state of event.tables ?? []) {
    const countedAlready = (shown.get(state.name)?.version ?? 0) >= state.version;
    if (!matchesSearch(view, state.name) || countedAlready) continue;
    if (state.previousStatus === state.status) continue;
    counts[state.previousStatus] = Math.max(0, counts[state.previousStatus] - 1);
    counts[state.status] += 1;
    if (view.status) {
      const entered = state.status === view.status;
      total = Math.max(0, total + (entered ? 1 : -1));
      if (entered || state.previousStatus === view.status) membershipChanged = true;
    }
  }
  const { rows, reread } = patchTableRows(page.tables, event, false);
  return { page: { ...page, counts, total, tables: rows }, reread, membershipChanged };
}

/** `rows` with any newer (or as new) row of `fresh` in place of theirs. */
export function replaceRows(rows: readonly TableInfo[], fresh: ReadonlyMap<string, TableInfo>) {
  return rows.map((row) => {
    const newer = fresh.get(row.name);
    return newer && newer.version >= row.version ? newer : row;
  });
}
