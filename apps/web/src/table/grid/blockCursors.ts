/** How to ask the API for one block of rows. */
export type BlockPosition = { after: string } | { before: string } | { offset: number };

interface BlockEnds {
  startCursor: string | null;
  endCursor: string | null;
}

/**
 * Remembers where the grid's loaded blocks start and end in the data, so that the block next to
 * a loaded one is read by cursor (keyset: as quick on row 99,900 as on row 100, and no row
 * repeated or skipped when others insert or delete meanwhile). A block with no loaded neighbour
 * (a jump of the scrollbar) is read by offset. Cursors belong to one sort and filter: a new
 * view forgets them all.
 */
export class BlockCursors {
  private view = '';
  private byStart = new Map<number, BlockEnds>();
  private byEnd = new Map<number, BlockEnds>();

  /** How to read rows `startRow` up to `endRow` of `view` (any string naming sort and filter). */
  positionOf(view: string, startRow: number, endRow: number): BlockPosition {
    this.enter(view);
    const before = this.byEnd.get(startRow)?.endCursor;
    if (before) return { after: before };
    const after = this.byStart.get(endRow)?.startCursor;
    if (after) return { before: after };
    return { offset: startRow };
  }

  /** A block of `view` was read: its first and last rows' cursors. A late answer for a view left since is dropped. */
  remember(view: string, startRow: number, endRow: number, ends: BlockEnds): void {
    if (view !== this.view) return;
    this.byStart.set(startRow, ends);
    this.byEnd.set(endRow, ends);
  }

  private enter(view: string) {
    if (view === this.view) return;
    this.view = view;
    this.byStart.clear();
    this.byEnd.clear();
  }
}
