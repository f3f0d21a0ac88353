import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/useFormatters';
import { ChangeKindBadge } from './ChangeKindBadge';
import { ChangeRows } from './ChangeRows';
import { type ChangeSummary, writerOf } from './historyTypes';
import { RevertPanel } from './RevertPanel';

interface ChangeEntryProps {
  table: string;
  change: ChangeSummary;
  token: string | null;
  onReverted: (rows: number) => void;
}

/** One change: when, what kind, who, how many rows; opens to its rows and, with the lock, its revert. */
export function ChangeEntry({ table, change, token, onReverted }: ChangeEntryProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [open, setOpen] = useState(false);
  const [reverting, setReverting] = useState(false);
  const detailsId = `change-${change.id}-rows`;
  return (
    <tbody data-testid="change-entry" data-change-id={change.id} data-kind={change.kind}>
      <tr>
        <td className="nowrap">
          <time dateTime={change.at}>{format.dateTimeSeconds(change.at)}</time>
        </td>
        <td>
          <ChangeKindBadge kind={change.kind} />
          {change.revertsChangeId && (
            <span className="muted">
              {' '}
              {t('changeHistory.revertOf', { id: change.revertsChangeId })}
            </span>
          )}
        </td>
        <td>
          {writerOf(change)}
          {change.approvedBy && (
            <span className="muted">
              {' '}
              {t('changeHistory.approvedBy', { approver: change.approvedBy })}
            </span>
          )}
          {change.applicationName && <span className="muted"> ({change.applicationName})</span>}
        </td>
        <td className="nowrap">
          {t('changeHistory.counts', {
            inserted: format.count(change.rowsInserted),
            updated: format.count(change.rowsUpdated),
            deleted: format.count(change.rowsDeleted),
          })}
        </td>
        <td className="nowrap">
          <button
            type="button"
            className="button small"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen(!open)}
          >
            {open ? t('changeHistory.hideRows') : t('changeHistory.showRows')}
          </button>
          {token && !reverting && (
            <button
              type="button"
              className="button small"
              onClick={() => {
                setOpen(true);
                setReverting(true);
              }}
            >
              {t('changeHistory.revert')}
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr id={detailsId}>
          <td colSpan={5}>
            {reverting && token && (
              <RevertPanel
                table={table}
                changeId={change.id}
                token={token}
                onDone={(rows) => {
                  setReverting(false);
                  if (rows > 0) onReverted(rows);
                }}
              />
            )}
            <ChangeRows table={table} changeId={change.id} />
          </td>
        </tr>
      )}
    </tbody>
  );
}
