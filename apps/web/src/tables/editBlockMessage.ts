import type { TFunction } from 'i18next';
import type { EditBlock } from './editBlock';

/** The block as a sentence: "Being edited by alice", "Locked because products is being edited". */
export function editBlockMessage(block: EditBlock, t: TFunction): string {
  const unknown = t('tables.someone');
  switch (block.reason) {
    case 'beingEdited':
      return t('editBlock.beingEdited', { editor: block.editor ?? unknown });
    case 'locked':
      return t('editBlock.locked', {
        tables: block.holders.join(', '),
        editor: block.editor ?? unknown,
        count: block.holders.length,
      });
    case 'referenceBeingEdited':
      return t('editBlock.referenceBeingEdited', {
        table: block.table,
        editor: block.editor ?? unknown,
      });
  }
}
