import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { DraftChanges } from '../changes/DraftChanges';

export interface StoredDraft {
  /** When the edits were last kept (ISO 8601). */
  savedAt: string;
  changes: DraftChanges;
}

let store: UseStore | undefined;

// IndexedDB, not localStorage: a paste of thousands of rows must not hit a 5 MB limit, and
// writing one draft must not block the page while the user types.
const drafts = () => {
  store ??= createStore('tablelock-drafts', 'drafts');
  return store;
};

// Per user and table: a draft is never offered to another user of the same browser.
const draftKey = (user: string, table: string) => JSON.stringify([user, table]);

export function readDraft(user: string, table: string): Promise<StoredDraft | undefined> {
  return get<StoredDraft>(draftKey(user, table), drafts());
}

export function writeDraft(user: string, table: string, changes: DraftChanges): Promise<void> {
  return set(draftKey(user, table), { savedAt: new Date().toISOString(), changes }, drafts());
}

export function deleteDraft(user: string, table: string): Promise<void> {
  return del(draftKey(user, table), drafts());
}
