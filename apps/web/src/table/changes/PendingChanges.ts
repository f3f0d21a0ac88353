import type { RowChanges, SaveRowsMutation } from '../../generated/graphql';
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
  /** Increases with every change: a snapshot for React's useSyncExternalStore. */
  revision = 0;

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
    if (!update) return row;
    // Keep the version first read: saving must detect a change made since then.
    update.row = {
      ...row,
      version: update.row.version,
      values: { ...row.values, ...update.changed },
    };
    return update.row;
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
    row.values[column] = value;
    if (!this.isNew(row.id)) {
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

  addRow(): GridRow {
    const row: GridRow = {
      id: `${NEW_ROW_PREFIX}${this.nextNewRow++}`,
      key: null,
      version: null,
      values: {},
    };
    this.inserts = [row, ...this.inserts];
    this.emit();
    return row;
  }

  /** Marks stored rows for deletion; a new row is simply dropped. */
  delete(rows: readonly GridRow[]): void {
    for (const row of rows) {
      if (this.isNew(row.id)) {
        this.inserts = this.inserts.filter((candidate) => candidate.id !== row.id);
      } else if (row.key && row.version) {
        this.deletes.set(row.id, { key: row.key, version: row.version });
      }
      this.saveErrors.delete(row.id);
    }
    this.emit();
  }

  /** Undoes a deletion or the edits of one row. */
  revert(row: GridRow): void {
    if (this.deletes.delete(row.id)) {
      this.saveErrors.delete(row.id);
      this.emit();
      return;
    }
    const update = this.updates.get(row.id);
    if (!update) return;
    Object.assign(row.values, update.original);
    this.updates.delete(row.id);
    this.saveErrors.delete(row.id);
    this.emit();
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
        const issue = validateValue(column, row.values[column.name] ?? null, true);
        if (issue) issues.push({ rowId: row.id, column: column.name, issue });
      }
    }
    for (const [rowId, update] of this.updates) {
      if (this.deletes.has(rowId)) continue;
      for (const [name, value] of Object.entries(update.changed)) {
        const column = this.columns.get(name);
        const issue = column && validateValue(column, value, false);
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
      return row ? validateValue(rules, row.values[column] ?? null, true) : null;
    }
    const changed = this.updates.get(rowId)?.changed;
    if (!changed || !(column in changed) || this.deletes.has(rowId)) return null;
    return validateValue(rules, changed[column] ?? null, false);
  }

  /** How many cells of the row hold a value that cannot be saved. */
  invalidCellCount(rowId: string): number {
    return this.invalidCells().filter((cell) => cell.rowId === rowId).length;
  }

  saveErrorsFor(rowId: string): readonly SaveError[] {
    return this.saveErrors.get(rowId) ?? [];
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

  clear(): void {
    this.updates.clear();
    this.deletes.clear();
    this.inserts = [];
    this.saveErrors = new Map();
    this.emit();
  }

  private emit() {
    this.revision++;
    for (const listener of this.listeners) listener();
  }
}
