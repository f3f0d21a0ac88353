import { useTranslation } from 'react-i18next';
import { idleLimitText } from '../../i18n/idleLimitText';
import { RuleBadges } from '../../tables/RuleBadges';
import { StatusBadge } from '../../tables/StatusBadge';
import type { TableInfo } from '../../tables/useTables';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

interface StartEditingDialogProps {
  open: boolean;
  table: TableInfo;
  tables: readonly TableInfo[];
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Says what starting to edit will lock, before it does. */
export function StartEditingDialog({
  open,
  table,
  tables,
  busy,
  onConfirm,
  onCancel,
}: StartEditingDialogProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={open}
      title={t('startEditing.title', { table: table.name })}
      confirmLabel={t('startEditing.confirm')}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>{t('startEditing.exclusive', { table: table.name })}</p>
      {table.policy.changesNeedApproval && (
        <p className="approval-note" data-testid="needs-approval-note">
          <span className="rule-badge rule-needs-approval">{t('fourEyes.badge')}</span>{' '}
          {t('fourEyes.startNote', { table: table.name })}
        </p>
      )}
      <p data-testid="idle-limit-note">
        {t('startEditing.idleLimit', { limit: idleLimitText(table.idleLimitSeconds, t) })}
      </p>
      {table.references.length > 0 ? (
        <>
          <p>{t('startEditing.referencesLocked', { count: table.references.length })}</p>
          <ul className="reference-list" data-testid="tables-to-lock">
            {table.references.map((name) => {
              const referenced = tables.find((candidate) => candidate.name === name);
              return (
                <li key={name}>
                  <span className="table-name">{name}</span>
                  {referenced && (
                    <>
                      <StatusBadge status={referenced.status} frozen={referenced.frozen !== null} />
                      <RuleBadges table={referenced} />
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      ) : (
        <p>{t('startEditing.noReferences')}</p>
      )}
    </ConfirmDialog>
  );
}
