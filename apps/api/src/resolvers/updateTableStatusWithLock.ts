import { updateTableStatusWithLock } from '@tablelock/lock';
import type { MutationResolvers } from '../generated/graphql';

export const UpdateTableStatusWithLock: MutationResolvers['UpdateTableStatusWithLock'] = (
  _parent,
  { input },
  { prisma },
) =>
  updateTableStatusWithLock(prisma, {
    tableName: input.table_name,
    currentStatus: input.current_status,
    targetStatus: input.target_status,
    fkTableNames: input.fk_table_name,
    fkCurrentStatus: input.fk_current_status,
    fkTargetStatus: input.fk_target_status,
    editor: input.editor,
  });
