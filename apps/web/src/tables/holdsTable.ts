import type { TableInfo } from './useTables';

/**
 * Whether `user` holds the table's lock through any tab: the whole table, or a row scope of it
 * (the table then shows `editing` by its oldest scope's editor, who may be someone else).
 */
export function holdsTable(info: TableInfo, user: string): boolean {
  if (info.rowLocks.length > 0) return info.rowLocks.some((scope) => scope.editor === user);
  return info.status === 'editing' && info.editor === user;
}
