import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useFormatters } from '../i18n/useFormatters';
import { WaitingCount } from '../queue/WaitingLine';
import { TableLinks } from '../ui/TableLinks';
import { useNow } from '../ui/useNow';
import { editBlockMessage } from './editBlockMessage';
import { holdsTable } from './holdsTable';
import { RuleBadges } from './RuleBadges';
import { rowScopeHolders } from './rowScopeHolders';
import { StatusBadge } from './StatusBadge';
import type { TableInfo } from './useTables';

interface TableRowProps {
  table: TableInfo;
  userName: string;
  canEdit: boolean;
}

/** A table of the tables page: its state, who edits it, and what the user may do with it. */
export function TableRow({ table, userName, canEdit }: TableRowProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const now = useNow();
  const navigate = useNavigate();
  const mine = holdsTable(table, userName);
  const reason = table.editBlock && editBlockMessage(table.editBlock, t);
  const startEditing = () =>
    navigate(`/tables/${encodeURIComponent(table.name)}`, { state: { startEditing: true } });

  return (
    <tr data-testid={`table-row-${table.name}`} data-status={table.status}>
      <th scope="row">
        <Link to={`/tables/${encodeURIComponent(table.name)}`} className="table-name">
          {table.name}
        </Link>
      </th>
      <td>
        <StatusBadge status={table.status} frozen={table.frozen !== null} mine={mine} />
        <RuleBadges table={table} />
        <WaitingCount waiters={table.waiters} />
      </td>
      <td data-testid="editor">
        {table.rowLocks.length > 0
          ? rowScopeHolders(table.rowLocks)
          : table.status === 'normal'
            ? ''
            : (table.editor ?? '')}
      </td>
      <td>{table.lockedBy.join(', ')}</td>
      <td>
        <TableLinks names={table.references} />
      </td>
      <td title={format.dateTime(table.updatedAt)}>{format.relative(table.updatedAt, now)}</td>
      <td className="actions-column">
        <div className="row-actions">
          {canEdit && reason && (
            <span className="block-reason" data-testid="edit-block-reason">
              {reason}
            </span>
          )}
          <Link to={`/tables/${encodeURIComponent(table.name)}`} className="button subtle small">
            {t('tables.open')}
          </Link>
          {canEdit &&
            (mine ? (
              <Link
                to={`/tables/${encodeURIComponent(table.name)}`}
                className="button primary small"
              >
                {t('tables.continueEditing')}
              </Link>
            ) : (
              <button
                type="button"
                className="button primary small"
                disabled={table.editBlock !== null}
                title={reason ?? undefined}
                onClick={startEditing}
              >
                {t('tables.edit')}
              </button>
            ))}
        </div>
      </td>
    </tr>
  );
}
