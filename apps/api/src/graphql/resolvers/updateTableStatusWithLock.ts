import { updateTableStatusWithLock } from '@tablelock/lock';
import { editorRights } from '../../auth/editorRights';
import { lockEditor } from '../../auth/lockEditor';
import type { MutationResolvers } from '../generated/graphql';
import { callerOf } from './callerOf';

export const UpdateTableStatusWithLock: MutationResolvers['UpdateTableStatusWithLock'] = async (
  _parent,
  { input },
  context,
) => {
  const caller = callerOf(context);
  return updateTableStatusWithLock(
    context.prisma,
    {
      tableName: input.table_name,
      currentStatus: input.current_status,
      targetStatus: input.target_status,
      fkTableNames: input.fk_table_name,
      fkCurrentStatus: input.fk_current_status,
      fkTargetStatus: input.fk_target_status,
      editor: await lockEditor(context, caller, input.editor),
    },
    caller.name,
    editorRights(caller),
  );
};
