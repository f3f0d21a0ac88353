/** Steps kept for undo: enough for a long session, bounded so an endless one cannot grow. */
const MAX_STEPS = 500;

/**
 * The undo and redo stacks of an edit session. A step is every edit made by one user action:
 * a typed cell is one edit, a paste or a fill many, undone together. What an edit is, and how
 * to reverse it, is the owner's business (PendingChanges).
 */
export class EditHistory<Edit> {
  private done: Edit[][] = [];
  private undone: Edit[][] = [];
  private open: Edit[] | null = null;
  private depth = 0;

  /** Files an edit under the open step, or as a step of its own. A new edit ends any redo. */
  record(edit: Edit): void {
    if (this.open) this.open.push(edit);
    else this.push([edit]);
  }

  /** Runs `action`; every edit it records (also in nested steps) becomes one step. */
  step<T>(action: () => T): T {
    this.depth++;
    this.open ??= [];
    try {
      return action();
    } finally {
      this.depth--;
      if (this.depth === 0) {
        const edits = this.open;
        this.open = null;
        if (edits.length > 0) this.push(edits);
      }
    }
  }

  /** The last step, moved to the redo stack; its edits are to be reversed, last first. */
  takeUndo(): readonly Edit[] | undefined {
    const edits = this.done.pop();
    if (edits) this.undone.push(edits);
    return edits;
  }

  /** The last undone step, moved back; its edits are to be made again, first first. */
  takeRedo(): readonly Edit[] | undefined {
    const edits = this.undone.pop();
    if (edits) this.done.push(edits);
    return edits;
  }

  canUndo(): boolean {
    return this.done.length > 0;
  }

  canRedo(): boolean {
    return this.undone.length > 0;
  }

  clear(): void {
    this.done = [];
    this.undone = [];
  }

  private push(edits: Edit[]) {
    this.done.push(edits);
    if (this.done.length > MAX_STEPS) this.done.shift();
    this.undone = [];
  }
}
