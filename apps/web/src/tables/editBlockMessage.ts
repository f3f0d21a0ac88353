import type { TFunction } from 'i18next';
import type { TablesQuery } from '../generated/graphql';

/** Why the user cannot start editing a table now, as the API decides it (TableInfo.editBlock). */
type ApiEditBlock = NonNullable<TablesQuery['tables'][number]['editBlock']>;
type ApiBlocker = ApiEditBlock['blockers'][number];
/**
 * As the tables query or an error's extensions carry it (`reason`: a freeze's; a blocker's
 * `rows`: the values of a row scope in the way).
 */
export type EditBlock = Omit<ApiEditBlock, 'reason' | 'blockers'> & {
  blockers: (Omit<ApiBlocker, 'rows'> & { rows?: ApiBlocker['rows'] })[];
  reason?: string | null;
};

/** The block as a sentence: "Being edited by alice", "Locked because products is being edited". */
export function editBlockMessage(block: EditBlock, t: TFunction): string {
  const unknown = t('tables.someone');
  const first = block.blockers[0];
  switch (block.kind) {
    case 'beingEdited':
      // Row scopes: each holder with their values of the row-lock column.
      if (block.blockers.some((blocker) => blocker.rows))
        return t('editBlock.beingEditedRows', {
          holders: block.blockers
            .map((blocker) =>
              t('editBlock.rowsHeldBy', {
                editor: blocker.editor ?? unknown,
                rows: blocker.rows?.join(', ') ?? '',
              }),
            )
            .join(', '),
        });
      return t('editBlock.beingEdited', { editor: first?.editor ?? unknown });
    case 'lockedByEditing':
      return t('editBlock.locked', {
        tables: block.blockers.map((blocker) => blocker.table).join(', '),
        editor: first?.editor ?? unknown,
        count: block.blockers.length,
      });
    case 'referenceBeingEdited':
      return t('editBlock.referenceBeingEdited', {
        table: first?.table,
        editor: first?.editor ?? unknown,
        tables: block.blockers
          .map((blocker) =>
            t('editBlock.tableEditedBy', { ...blocker, editor: blocker.editor ?? unknown }),
          )
          .join(', '),
        count: block.blockers.length,
      });
    case 'queued':
      return t('editBlock.queued', {
        editor: first?.editor ?? unknown,
        editors: [...new Set(block.blockers.map((blocker) => blocker.editor ?? unknown))].join(
          ', ',
        ),
        count: block.blockers.length,
      });
    case 'readOnly':
      return t('editBlock.readOnly');
    case 'frozen':
      return t('editBlock.frozen', { reason: block.reason ?? '' });
    case 'notAllowed':
      return t('editBlock.notAllowed');
  }
}
