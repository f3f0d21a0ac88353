import type { RowValues } from './gridRow';

/**
 * A user's unsaved edits of one table as kept in the browser (drafts/draftStore.ts): plain data,
 * each change with the row version it was made on, so that a row changed by someone else since
 * comes back as a conflict when it is saved, never as a silent overwrite.
 */
export interface DraftChanges {
  updates: {
    id: string;
    key: RowValues | null;
    version: string | null;
    /** The values as read, for the columns changed. */
    original: RowValues;
    changed: RowValues;
  }[];
  inserts: { values: RowValues }[];
  deletes: { id: string; key: RowValues; version: string }[];
}

/** How many changes a draft holds, counted as the change summary counts them. */
export function draftSize(changes: DraftChanges): number {
  const deleted = new Set(changes.deletes.map((entry) => entry.id));
  const updates = changes.updates.filter((update) => !deleted.has(update.id)).length;
  return updates + changes.inserts.length + changes.deletes.length;
}
