import type { GridApi } from 'ag-grid-community';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableColumnsQuery } from '../generated/graphql';
import { roleAtLeast } from '../session/roles';
import type { SessionUser } from '../session/useSession';
import { RuleBadges } from '../tables/RuleBadges';
import { StatusBadge } from '../tables/StatusBadge';
import type { TableInfo } from '../tables/useTables';
import { AsOfControl } from './asOf/AsOfControl';
import { TableCaption } from './captions/TableCaption';
import type { GridRow } from './changes/gridRow';
import { HistoryButtons } from './history/HistoryButtons';
import { LockSummary } from './lock/LockSummary';

interface TableHeadingProps {
  info: TableInfo;
  page: TableColumnsQuery['rows'];
  user: SessionUser;
  /** The user holds the table's lock, through any tab. */
  holds: boolean;
  /** The connection is lost: the lock's state is not confirmed. */
  unconfirmed: boolean;
  grid: RefObject<GridApi<GridRow> | null>;
  /** The lock's token while this tab edits (reverts need it), else null. */
  token: string | null;
  /** The time the grid shows (ISO), null for today; and where another goes. */
  asOf: string | null;
  onAsOf: (asOf: string | null) => void;
  /** The user is editing (or lost the lock mid-edit): the grid stays on today. */
  editing: boolean;
}

/** The table's name, its state and rules, who holds it, and the doors to its history. */
export function TableHeading({
  info,
  page,
  user,
  holds,
  unconfirmed,
  grid,
  token,
  asOf,
  onAsOf,
  editing,
}: TableHeadingProps) {
  const { t } = useTranslation();
  return (
    <div className="page-title">
      <h1>
        <TableCaption captions={page.tableCaptions} />
        <span data-testid="table-title">{info.name}</span>
        <span data-testid="table-status">
          <StatusBadge status={info.status} frozen={info.frozen !== null} mine={holds} />
        </span>
        <RuleBadges table={info} />
      </h1>
      <LockSummary info={info} user={user.name} unconfirmed={unconfirmed} />
      {!roleAtLeast(user.role, 'editor') && <p className="muted">{t('table.viewOnly')}</p>}
      <span className="table-heading-tools">
        <HistoryButtons table={info.name} grid={grid} token={token} />
        <AsOfControl asOf={asOf} onChange={onAsOf} editing={editing} />
      </span>
    </div>
  );
}
