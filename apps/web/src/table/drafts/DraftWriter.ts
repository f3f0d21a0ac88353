import { draftSize } from '../changes/DraftChanges';
import type { PendingChanges } from '../changes/PendingChanges';
import { deleteDraft, writeDraft } from './draftStore';

const DRAFT_WRITE_MEASURE = 'tablelock:draft-write';

/**
 * Keeps the draft of one user and table up with the pending edits: after each change the latest
 * edits are written (one write at a time; changes made during a write are in the next one), and
 * the draft is deleted once nothing is pending (saved or discarded).
 */
export class DraftWriter {
  private writing = false;
  private dirty = false;

  constructor(
    private readonly pending: PendingChanges,
    private readonly user: string,
    private readonly table: string,
  ) {}

  /** Starts following the edits; the returned function stops it. */
  follow(): () => void {
    this.changed();
    return this.pending.subscribe(() => this.changed());
  }

  private changed(): void {
    this.dirty = true;
    if (!this.writing) void this.writeLatest();
  }

  private async writeLatest(): Promise<void> {
    this.writing = true;
    try {
      while (this.dirty) {
        this.dirty = false;
        const start = performance.now();
        const changes = this.pending.toDraft();
        const size = draftSize(changes);
        await (size === 0
          ? deleteDraft(this.user, this.table)
          : writeDraft(this.user, this.table, changes));
        // What keeping a draft costs, in the browser's performance timeline (devtools shows it).
        performance.measure(DRAFT_WRITE_MEASURE, { start, detail: { changes: size } });
      }
    } catch (error) {
      // A browser that refuses IndexedDB (private mode, quota) still edits; it cannot keep drafts.
      console.warn('The unsaved edits could not be kept as a draft.', error);
    } finally {
      this.writing = false;
    }
  }
}
