import type { RowValues } from '../readRows';

/**
 * Values as the history holds them, as text like `rows` returns them. The history stores text,
 * but a jsonb written by another writer may hold numbers or booleans: they read as their text.
 */
export function historyValues(json: unknown): RowValues | null {
  if (json === null || json === undefined || typeof json !== 'object') return null;
  return Object.fromEntries(
    Object.entries(json as Record<string, unknown>).map(([column, value]) => [
      column,
      value === null || typeof value === 'string'
        ? value
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value),
    ]),
  );
}
