import type { Principal } from '@tablelock/identity';
import type { EditorRights } from '@tablelock/lock';

/** What a table's policy of who may edit looks at: the caller's role and groups. */
export const editorRights = (principal: Principal): EditorRights => ({
  role: principal.role,
  groups: principal.groups,
});
