import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/useFormatters';
import { WaitingLine } from '../../queue/WaitingLine';
import { rowScopeHolders } from '../../tables/rowScopeHolders';
import type { TableInfo } from '../../tables/useTables';
import { TableLinks } from '../../ui/TableLinks';

/**
 * Who holds the table and since when, who waits for it, and how it is tied to other tables by
 * foreign keys.
 */
export function LockSummary({
  info,
  user,
  unconfirmed = false,
}: {
  info: TableInfo;
  user: string;
  /** The API is out of reach: the user's lock may have ended meanwhile. */
  unconfirmed?: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const since = format.dateTime(info.updatedAt);
  const editor = info.editor ?? t('tables.someone');
  let summary: string;
  const own = info.rowLocks.find((scope) => scope.editor === user);
  if (info.rowLocks.length > 0) {
    // Row scopes: who edits which part; the rest of the table is free for another scope.
    summary = own
      ? t('table.summary.yourRows', {
          column: info.rowLockColumn,
          rows: own.rows.join(', '),
          holders: rowScopeHolders(info.rowLocks),
        })
      : t('table.summary.rowScopes', {
          column: info.rowLockColumn,
          holders: rowScopeHolders(info.rowLocks),
        });
  } else if (info.status === 'editing') {
    summary =
      info.editor === user
        ? t(unconfirmed ? 'table.summary.editingByYouUnconfirmed' : 'table.summary.editingByYou', {
            since,
          })
        : t('table.summary.editingBy', { editor, since });
  } else if (info.status === 'locked') {
    summary = t('table.summary.locked', {
      tables: info.lockedBy.join(', '),
      editor,
      count: info.lockedBy.length,
    });
  } else {
    summary = t('table.summary.free');
  }
  return (
    <div className="lock-summary">
      <p data-testid="lock-summary">{summary}</p>
      <WaitingLine waiters={info.waiters} user={user} />
      {(info.references.length > 0 || info.referencedBy.length > 0) && (
        <p className="relations">
          {info.references.length > 0 && (
            <span>
              {t('table.references')}
              <TableLinks names={info.references} />
            </span>
          )}
          {info.referencedBy.length > 0 && (
            <span>
              {t('table.referencedBy')}
              <TableLinks names={info.referencedBy} />
            </span>
          )}
        </p>
      )}
    </div>
  );
}
