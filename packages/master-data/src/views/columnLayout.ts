import { z } from 'zod';
import { MasterDataError } from '../masterDataError';
import type { MasterTable } from '../tableColumns';

/** One column of a grid as a user laid it out; the list's order is the columns' order. */
export interface ColumnLayout {
  column: string;
  /** Pixels; null for the grid's own width. */
  width: number | null;
  hidden: boolean;
  pinned: 'left' | 'right' | null;
}

export const MIN_COLUMN_WIDTH = 20;
export const MAX_COLUMN_WIDTH = 2000;

const columnLayouts = z.array(
  z.object({
    column: z.string(),
    width: z.number().int().min(MIN_COLUMN_WIDTH).max(MAX_COLUMN_WIDTH).nullish(),
    hidden: z.boolean(),
    pinned: z.enum(['left', 'right']).nullish(),
  }),
);

/** The layout checked against the table: its own columns, each once. */
export function checkColumnLayout(table: MasterTable, layout: unknown): ColumnLayout[] {
  const parsed = columnLayouts.safeParse(layout);
  if (!parsed.success) throw new MasterDataError('BAD_USER_INPUT', z.prettifyError(parsed.error));
  const names = new Set(table.columns.map((column) => column.name));
  const seen = new Set<string>();
  return parsed.data.map(({ column, width, hidden, pinned }) => {
    if (!names.has(column)) {
      throw new MasterDataError('BAD_USER_INPUT', `${table.name} has no column named ${column}.`);
    }
    if (seen.has(column)) {
      throw new MasterDataError('BAD_USER_INPUT', `The layout names ${column} twice.`);
    }
    seen.add(column);
    return { column, width: width ?? null, hidden, pinned: pinned ?? null };
  });
}

/**
 * A layout as stored, for a table whose columns may have changed since: columns it no longer
 * has are left out (the grid shows new ones at their default place).
 */
export function storedColumnLayout(table: MasterTable, stored: unknown): ColumnLayout[] {
  const parsed = columnLayouts.safeParse(stored);
  if (!parsed.success) return [];
  const names = new Set(table.columns.map((column) => column.name));
  return parsed.data
    .filter((entry) => names.has(entry.column))
    .map(({ column, width, hidden, pinned }) => ({
      column,
      width: width ?? null,
      hidden,
      pinned: pinned ?? null,
    }));
}
