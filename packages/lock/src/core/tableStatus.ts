/**
 * A master table's lock state: `normal` (free), `editing` (someone edits it) or `locked`
 * (tables being edited reference it). The domain's own: the database's enum follows it.
 */
export const TableStatus = {
  normal: 'normal',
  editing: 'editing',
  locked: 'locked',
} as const;

export type TableStatus = (typeof TableStatus)[keyof typeof TableStatus];
