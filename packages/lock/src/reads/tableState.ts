import type { TableStatus } from '../core/tableStatus';

/** A table's lock state as a change left it: what a live event says about each table it wrote. */
export interface TableState {
  name: string;
  status: TableStatus;
  /** Its status before the change: lets a listener keep counts per status. */
  previousStatus: TableStatus;
  /** The editor; for a `locked` table, the editor of its first holder (as in TableInfo). */
  editor: string | null;
  lockedBy: string[];
  version: number;
  updatedAt: Date;
  acquiredAt: Date | null;
  leaseExpiresAt: Date | null;
}

const dateOrNull = (value: unknown) => (value ? new Date(String(value)) : null);

/**
 * The `tables` of an announced event (see notifyEvent): the states, or null when the change
 * wrote too many tables to announce them (or the payload has none).
 */
export function parseTableStates(raw: unknown): TableState[] | null {
  if (!Array.isArray(raw)) return null;
  return raw.map((state: Record<string, unknown>) => ({
    name: String(state.name),
    status: state.status as TableStatus,
    previousStatus: state.previousStatus as TableStatus,
    editor: (state.editor as string | null) ?? null,
    lockedBy: (state.lockedBy as string[] | null) ?? [],
    version: Number(state.version),
    updatedAt: new Date(String(state.updatedAt)),
    acquiredAt: dateOrNull(state.acquiredAt),
    leaseExpiresAt: dateOrNull(state.leaseExpiresAt),
  }));
}
