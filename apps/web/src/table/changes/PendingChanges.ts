import type { RowChanges, SaveRowsMutation } from '../../generated/graphql';
import type { DraftChanges } from './DraftChanges';
import { EditHistory } from './EditHistory';
import type { GridRow, RowValues } from './gridRow';
import { type ColumnRules, type ValidationIssue, validateValue } from './validateValue';

export type RowState = 'unchanged' | 'changed' | 'new' | 'deleted';

/** A save refusal for one row, as the API reported it. */
type RowErrorDetails = SaveRowsMutation['saveRows']['rowErrors'][number]['details'];

export interface SaveError {
  column: string | null;
  code: string;
  message: string;
  /** The facts behind it, to say it in the user's language. */
  details: Partial<RowErrorDetails> & Pick<RowErrorDetails, 'kind'>;
}

export interface CellIssue {
  rowId: string;
  column: string;
  issue: ValidationIssue;
}

interface PendingUpdate {
  row: GridRow;
  /** The values as read, for the columns changed since. */
  original: RowValues;
  changed: RowValues;
}

interface PendingDelete {
  key: RowValues;
  version: string;
}

/** One change to the pending edits, as the undo history keeps it. */
type Edit =
  | { kind: 'cell'; row: GridRow; column: string; before: string | null; after: string | null }
  | { kind: 'addRow'; row: GridRow; index: number }
  | { kind: 'dropNewRow'; row: GridRow; index: number }
  | { kind: 'delete'; rowId: string; entry: PendingDelete }
  | { kind: 'undelete'; rowId: string; entry: PendingDelete };

/** Which row each entry of the RowChanges lists came from, to place per-row save errors. */
export interface ChangeOrigins {
  insert: string[];
  update: string[];
  delete: string[];
}

export interface ChangeCounts {
  inserts: number;
  updates: number;
  deletes: number;
  total: number;
}

const NEW_ROW_PREFIX = 'new:';

/**
 * The user's unsaved edits to one table: changed cells, new rows, rows marked for deletion, and
 * the errors of the last failed save. Kept outside React and outside the grid's row cache, so
 * edits survive scrolling, re-sorting, refetching and a lost lock; every row the grid loads is
 * shown through `overlay`. Listeners hear of every change.
 */
export class PendingChanges {
  private readonly columns: ReadonlyMap<string, ColumnRules>;
  private readonly updates = new Map<string, PendingUpdate>();
  private readonly deletes = new Map<string, PendingDelete>();
  private inserts: GridRow[] = [];
  private saveErrors = new Map<string, SaveError[]>();
  private listeners = new Set<() => void>();
  private nextNewRow = 1;
  private readonly history = new EditHistory<Edit>();
  /** The latest object the grid holds for each stored row the history names, for undo to edit. */
  private readonly historyRows = new Map<string, GridRow>();
  /**
   * Rows this user saved, by id: the version they were read with and the one the save gave
   * them. The grid reads saved rows again after a save; until it has, it shows the old objects.
   */
  private readonly savedVersions = new Map<string, { read: string; saved: string }>();
  private replaying = false;
  private batchDepth = 0;
  private batchChanged = false;
  /** Increases with every change: a snapshot for React's useSyncExternalStore. */
  revision = 0;
  /** Computed on demand, forgotten at every change. */
  private duplicates: ReadonlySet<string> | null = null;

  constructor(columns: readonly ColumnRules[]) {
    this.columns = new Map(columns.map((column) => [column.name, column]));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getRevision = (): number => this.revision;

  /** A row as loaded from the server, with this user's unsaved edits applied. */
  overlay(row: GridRow): GridRow {
    const update = this.updates.get(row.id);
    const shown = update
      ? // Keep the version first read: saving must detect a change made since then.
        { ...row, version: update.row.version, values: { ...row.values, ...update.changed } }
      : row;
    if (update) update.row = shown;
    if (this.historyRows.has(row.id)) this.historyRows.set(row.id, shown);
    return shown;
  }

  newRows(): readonly GridRow[] {
    return this.inserts;
  }

  isNew(rowId: string): boolean {
    return rowId.startsWith(NEW_ROW_PREFIX);
  }

  stateOf(rowId: string): RowState {
    if (this.isNew(rowId)) return 'new';
    if (this.deletes.has(rowId)) return 'deleted';
    return this.updates.has(rowId) ? 'changed' : 'unchanged';
  }

  isChanged(rowId: string, column: string): boolean {
    if (this.isNew(rowId)) return false;
    const changed = this.updates.get(rowId)?.changed;
    return changed !== undefined && column in changed;
  }

  setValue(row: GridRow, column: string, value: string | null): void {
    const previous = row.values[column] ?? null;
    if (previous !== value)
      this.record({ kind: 'cell', row, column, before: previous, after: value });
    this.write(row, column, value);
  }

  private write(row: GridRow, column: string, value: string | null): void {
    const previous = row.values[column] ?? null;
    row.values[column] = value;
    if (!this.isNew(row.id)) {
      if (!this.updates.has(row.id)) row.version = this.currentVersion(row);
      const update = this.updates.get(row.id) ?? { row, original: {}, changed: {} };
      update.row = row;
      if (!(column in update.original)) update.original[column] = previous;
      if (value === update.original[column]) delete update.changed[column];
      else update.changed[column] = value;
      if (Object.keys(update.changed).length === 0) this.updates.delete(row.id);
      else this.updates.set(row.id, update);
    }
    this.saveErrors.delete(row.id);
    this.emit();
  }

  /** A new row on top of the others, as the Add row button makes, with `values` filled in. */
  addRow(values: Readonly<Record<string, string>> = {}): GridRow {
    const row = { ...this.newRow(), values: { ...values } };
    this.insertNewRow(row, 0);
    return row;
  }

  /** New rows below the others, as a paste that runs past the last row makes; one undo step. */
  appendRows(count: number): GridRow[] {
    return this.step(() =>
      Array.from({ length: count }, () => {
        const row = this.newRow();
        this.insertNewRow(row, this.inserts.length);
        return row;
      }),
    );
  }

  private newRow(): GridRow {
    return { id: `${NEW_ROW_PREFIX}${this.nextNewRow++}`, key: null, version: null, values: {} };
  }

  private insertNewRow(row: GridRow, index: number) {
    this.record({ kind: 'addRow', row, index });
    this.inserts = this.inserts.toSpliced(index, 0, row);
    this.emit();
  }

  /** Marks stored rows for deletion; a new row is simply dropped. */
  delete(rows: readonly GridRow[]): void {
    this.step(() => {
      for (const row of rows) {
        if (this.isNew(row.id)) {
          const index = this.inserts.findIndex((candidate) => candidate.id === row.id);
          if (index >= 0) this.record({ kind: 'dropNewRow', row, index });
          this.inserts = this.inserts.filter((candidate) => candidate.id !== row.id);
        } else if (row.key && row.version && !this.deletes.has(row.id)) {
          const entry = { key: row.key, version: this.currentVersion(row) ?? row.version };
          this.record({ kind: 'delete', rowId: row.id, entry });
          this.deletes.set(row.id, entry);
        }
        this.saveErrors.delete(row.id);
      }
      this.emit();
    });
  }

  /** Undoes a deletion or the edits of one row. */
  revert(row: GridRow): void {
    const entry = this.deletes.get(row.id);
    if (entry) {
      this.record({ kind: 'undelete', rowId: row.id, entry });
      this.deletes.delete(row.id);
      this.saveErrors.delete(row.id);
      this.emit();
      return;
    }
    const update = this.updates.get(row.id);
    if (!update) return;
    this.step(() => {
      for (const column of Object.keys(update.changed)) {
        this.setValue(update.row, column, update.original[column] ?? null);
      }
    });
  }

  /**
   * Runs `action` as one step of the history (a paste, a fill: undone at once), telling the
   * listeners once at the end rather than after every cell.
   */
  step<T>(action: () => T): T {
    this.batchDepth++;
    try {
      return this.history.step(action);
    } finally {
      this.endBatch();
    }
  }

  canUndo(): boolean {
    return this.history.canUndo();
  }

  canRedo(): boolean {
    return this.history.canRedo();
  }

  /** Reverses the last step; false when there is none. */
  undo(): boolean {
    const edits = this.history.takeUndo();
    if (!edits) return false;
    this.replay(() => {
      for (const edit of edits.toReversed()) this.apply(edit, false);
    });
    return true;
  }

  /** Makes the last undone step again; false when there is none. */
  redo(): boolean {
    const edits = this.history.takeRedo();
    if (!edits) return false;
    this.replay(() => {
      for (const edit of edits) this.apply(edit, true);
    });
    return true;
  }

  private replay(action: () => void) {
    this.replaying = true;
    this.batchDepth++;
    try {
      action();
    } finally {
      this.replaying = false;
      this.endBatch();
    }
  }

  /** Makes an edit (`forward`) or reverses it. */
  private apply(edit: Edit, forward: boolean) {
    switch (edit.kind) {
      case 'cell':
        this.write(this.currentRow(edit.row), edit.column, forward ? edit.after : edit.before);
        return;
      case 'addRow':
      case 'dropNewRow': {
        const present = (edit.kind === 'addRow') === forward;
        this.inserts = this.inserts.filter((candidate) => candidate.id !== edit.row.id);
        if (present) this.inserts = this.inserts.toSpliced(edit.index, 0, edit.row);
        break;
      }
      case 'delete':
      case 'undelete':
        if ((edit.kind === 'delete') === forward) this.deletes.set(edit.rowId, edit.entry);
        else this.deletes.delete(edit.rowId);
        this.saveErrors.delete(edit.rowId);
        break;
    }
    this.emit();
  }

  /** The object the grid shows for a row now: a reload replaces the one an edit was made on. */
  private currentRow(row: GridRow): GridRow {
    if (this.isNew(row.id)) return row;
    return this.updates.get(row.id)?.row ?? this.historyRows.get(row.id) ?? row;
  }

  private record(edit: Edit) {
    if (this.replaying) return;
    if (edit.kind === 'cell' && !this.isNew(edit.row.id) && !this.historyRows.has(edit.row.id)) {
      this.historyRows.set(edit.row.id, edit.row);
    }
    this.history.record(edit);
  }

  counts(): ChangeCounts {
    let updates = 0;
    for (const id of this.updates.keys()) if (!this.deletes.has(id)) updates++;
    const inserts = this.inserts.length;
    const deletes = this.deletes.size;
    return { inserts, updates, deletes, total: inserts + updates + deletes };
  }

  /** Every cell whose value cannot be saved as it is, new rows first. */
  invalidCells(): CellIssue[] {
    const issues: CellIssue[] = [];
    for (const row of this.inserts) {
      for (const column of this.columns.values()) {
        const issue = this.issueOf(row.id, column, row.values[column.name] ?? null, true);
        if (issue) issues.push({ rowId: row.id, column: column.name, issue });
      }
    }
    for (const [rowId, update] of this.updates) {
      if (this.deletes.has(rowId)) continue;
      for (const [name, value] of Object.entries(update.changed)) {
        const column = this.columns.get(name);
        const issue = column && this.issueOf(rowId, column, value, false);
        if (issue) issues.push({ rowId, column: name, issue });
      }
    }
    return issues;
  }

  cellIssue(rowId: string, column: string): ValidationIssue | null {
    const rules = this.columns.get(column);
    if (!rules) return null;
    if (this.isNew(rowId)) {
      const row = this.inserts.find((candidate) => candidate.id === rowId);
      return row ? this.issueOf(rowId, rules, row.values[column] ?? null, true) : null;
    }
    const changed = this.updates.get(rowId)?.changed;
    if (!changed || !(column in changed) || this.deletes.has(rowId)) return null;
    return this.issueOf(rowId, rules, changed[column] ?? null, false);
  }

  private issueOf(
    rowId: string,
    column: ColumnRules,
    value: string | null,
    inserting: boolean,
  ): ValidationIssue | null {
    const issue = validateValue(column, value, inserting);
    if (issue || !column.unique) return issue;
    return this.duplicatedCells().has(`${rowId}\u0000${column.name}`)
      ? { code: 'duplicate' }
      : null;
  }

  /**
   * The cells (`rowId NUL column`) of UNIQUE columns whose value another new or changed row
   * holds too: the database would refuse the save for one of them. Values are compared as
   * typed; stored rows the user did not change are the save's to judge.
   */
  private duplicatedCells(): ReadonlySet<string> {
    if (this.duplicates) return this.duplicates;
    const holders = new Map<string, string[]>();
    const hold = (rowId: string, column: string, value: string | null | undefined) => {
      if (value === null || value === undefined || !this.columns.get(column)?.unique) return;
      const where = `${column}\u0000${value}`;
      holders.set(where, [...(holders.get(where) ?? []), `${rowId}\u0000${column}`]);
    };
    for (const row of this.inserts) {
      for (const [column, value] of Object.entries(row.values)) hold(row.id, column, value);
    }
    for (const [rowId, { changed }] of this.updates) {
      if (this.deletes.has(rowId)) continue;
      for (const [column, value] of Object.entries(changed)) hold(rowId, column, value);
    }
    const cells = new Set([...holders.values()].filter((held) => held.length > 1).flat());
    this.duplicates = cells;
    return cells;
  }

  /** How many cells of the row hold a value that cannot be saved. */
  invalidCellCount(rowId: string): number {
    return this.invalidCells().filter((cell) => cell.rowId === rowId).length;
  }

  saveErrorsFor(rowId: string): readonly SaveError[] {
    return this.saveErrors.get(rowId) ?? [];
  }

  /** Every row's errors of the last refused save or check, by row. */
  allSaveErrors(): readonly { rowId: string; errors: readonly SaveError[] }[] {
    return [...this.saveErrors].map(([rowId, errors]) => ({ rowId, errors }));
  }

  /** The primary key of a stored row with pending changes; null for a new row. */
  keyOf(rowId: string): RowValues | null {
    return this.updates.get(rowId)?.row.key ?? this.deletes.get(rowId)?.key ?? null;
  }

  /** The changes in the API's shape: new rows send only the values given (defaults fill the rest). */
  toRowChanges(): { changes: RowChanges; origins: ChangeOrigins } {
    const origins: ChangeOrigins = { insert: [], update: [], delete: [] };
    const inserts = this.inserts.map((row) => {
      origins.insert.push(row.id);
      return {
        values: Object.fromEntries(
          Object.entries(row.values).filter(([, value]) => value !== null),
        ),
      };
    });
    const updates = [...this.updates]
      .filter(([rowId]) => !this.deletes.has(rowId))
      .map(([rowId, { row, changed }]) => {
        origins.update.push(rowId);
        return { key: row.key ?? {}, version: row.version ?? '', values: { ...changed } };
      });
    const deletes = [...this.deletes].map(([rowId, { key, version }]) => {
      origins.delete.push(rowId);
      return { key, version };
    });
    return { changes: { inserts, updates, deletes }, origins };
  }

  /**
   * Files the errors of a refused save under their rows. Returns those that name no row we
   * sent, for the caller to show on their own.
   */
  setSaveErrors(
    errors: SaveRowsMutation['saveRows']['rowErrors'],
    origins: ChangeOrigins,
  ): SaveError[] {
    this.saveErrors = new Map();
    const unplaced: SaveError[] = [];
    for (const { change, index, column, code, message, details } of errors) {
      const rowId = origins[change][index];
      const error = { column: column ?? null, code, message, details };
      if (rowId === undefined) {
        unplaced.push(error);
        continue;
      }
      this.saveErrors.set(rowId, [...(this.saveErrors.get(rowId) ?? []), error]);
    }
    this.emit();
    return unplaced;
  }

  /**
   * After a successful save of `sent`: what it wrote is no longer pending, but edits made while
   * it was on its way are. An edit of a saved row that the grid has not read back yet names the
   * version the save gave it, not the one it was read with (that would be refused as changed by
   * someone else).
   */
  saved(
    sent: { changes: RowChanges; origins: ChangeOrigins },
    updatedVersions: readonly { index: number; version: string }[],
  ): void {
    for (const { index, version } of updatedVersions) {
      const rowId = sent.origins.update[index];
      const read = sent.changes.updates?.[index]?.version;
      if (rowId !== undefined && read !== undefined) {
        this.savedVersions.set(rowId, { read, saved: version });
      }
    }
    for (const [index, rowId] of sent.origins.update.entries()) {
      const update = this.updates.get(rowId);
      const written = sent.changes.updates?.[index]?.values ?? {};
      if (update) this.forgetWritten(rowId, update, written);
    }
    for (const rowId of sent.origins.delete) this.deletes.delete(rowId);
    const inserted = new Set(sent.origins.insert);
    this.inserts = this.inserts.filter((row) => !inserted.has(row.id));
    this.saveErrors = new Map();
    this.history.clear();
    this.historyRows.clear();
    this.emit();
  }

  /** The saved values are the row's now: only cells changed again since stay pending. */
  private forgetWritten(rowId: string, update: PendingUpdate, written: RowValues) {
    for (const [column, value] of Object.entries(written)) {
      update.original[column] = value;
      if (update.changed[column] === value) delete update.changed[column];
    }
    if (Object.keys(update.changed).length === 0) this.updates.delete(rowId);
    else update.row.version = this.currentVersion(update.row);
  }

  /** The version a change of `row` must name: a row object from before this user's save is stale. */
  private currentVersion(row: GridRow): string | null {
    const saved = this.savedVersions.get(row.id);
    return saved && row.version === saved.read ? saved.saved : row.version;
  }

  /** The edits as plain data, to keep as a draft (see DraftChanges). */
  toDraft(): DraftChanges {
    return {
      updates: [...this.updates].map(([id, { row, original, changed }]) => ({
        id,
        key: row.key,
        version: row.version,
        original: { ...original },
        changed: { ...changed },
      })),
      inserts: this.inserts.map((row) => ({ values: { ...row.values } })),
      deletes: [...this.deletes].map(([id, { key, version }]) => ({ id, key, version })),
    };
  }

  /**
   * Takes back the edits of a draft in place of none: each changed row keeps the version its
   * edit was made on, which the grid's overlay keeps when it loads the row.
   */
  restoreDraft(draft: DraftChanges): void {
    this.clear();
    for (const { id, key, version, original, changed } of draft.updates) {
      const row = { id, key, version, values: { ...original, ...changed } };
      this.updates.set(id, { row, original: { ...original }, changed: { ...changed } });
    }
    this.inserts = draft.inserts.map(({ values }) => ({ ...this.newRow(), values: { ...values } }));
    for (const { id, key, version } of draft.deletes) this.deletes.set(id, { key, version });
    this.emit();
  }

  clear(): void {
    this.updates.clear();
    this.deletes.clear();
    this.inserts = [];
    this.saveErrors = new Map();
    this.history.clear();
    this.historyRows.clear();
    this.emit();
  }

  private endBatch() {
    this.batchDepth--;
    if (this.batchDepth === 0 && this.batchChanged) {
      this.batchChanged = false;
      this.emit();
    }
  }

  private emit() {
    this.duplicates = null;
    if (this.batchDepth > 0) {
      this.batchChanged = true;
      return;
    }
    this.revision++;
    for (const listener of this.listeners) listener();
  }
}
