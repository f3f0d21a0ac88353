/**
 * What a principal may do: `viewer` reads, `editor` also edits, `admin` also governs. The domain's
 * own: the database's enum follows it.
 */
export const Role = {
  viewer: 'viewer',
  editor: 'editor',
  admin: 'admin',
} as const;

export type Role = (typeof Role)[keyof typeof Role];
