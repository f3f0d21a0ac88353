import type { GridApi } from 'ag-grid-community';
import { type RefObject, useEffect, useState } from 'react';
import { draftSize } from '../changes/DraftChanges';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import { DraftWriter } from './DraftWriter';
import { deleteDraft, readDraft, type StoredDraft } from './draftStore';

interface DraftOptions {
  table: string;
  user: string;
  pending: PendingChanges;
  grid: RefObject<GridApi<GridRow> | null>;
}

export interface DraftHandle {
  /** A draft of earlier edits waiting for the user's decision; null once none is. */
  offer: StoredDraft | null;
  /** Whether the page knows what to do with an earlier draft (none, restored or discarded). */
  settled: boolean;
  restore(): void;
  discard(): void;
}

/**
 * The user's unsaved edits of the table, kept in the browser as they are made, and offered back
 * when the page opens again (a reload, a crash, a closed tab, another tab). Until the user
 * restores or discards an earlier draft, the page keeps nothing, so the earlier one is not
 * overwritten by an empty start; from then on every change is kept.
 */
export function useDraft({ table, user, pending, grid }: DraftOptions): DraftHandle {
  const [state, setState] = useState<{ offer: StoredDraft | null; settled: boolean }>({
    offer: null,
    settled: false,
  });

  useEffect(() => {
    let current = true;
    readDraft(user, table).then(
      (draft) => {
        if (!current) return;
        const offered = draft && draftSize(draft.changes) > 0 ? draft : null;
        setState({ offer: offered, settled: offered === null });
      },
      () => current && setState({ offer: null, settled: true }),
    );
    return () => {
      current = false;
    };
  }, [user, table]);

  useEffect(() => {
    if (!state.settled) return;
    return new DraftWriter(pending, user, table).follow();
  }, [state.settled, pending, user, table]);

  return {
    ...state,
    restore: () => {
      if (!state.offer) return;
      pending.restoreDraft(state.offer.changes);
      // Rows already on screen were loaded without the edits: load them again through them.
      grid.current?.refreshInfiniteCache();
      setState({ offer: null, settled: true });
    },
    discard: () => {
      void deleteDraft(user, table);
      setState({ offer: null, settled: true });
    },
  };
}
