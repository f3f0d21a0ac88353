import { useTranslation } from 'react-i18next';
import { keyText } from '../ui/rowKeyText';
import { type RowOperation, ValueDiff } from '../ui/ValueDiff';

interface RequestDiffProps {
  rows: {
    action: RowOperation;
    key?: Record<string, string | null> | null;
    oldValues?: Record<string, string | null> | null;
    newValues?: Record<string, string | null> | null;
  }[];
}

/** A change request's rows: which row, what happens to it, old → new. */
export function RequestDiff({ rows }: RequestDiffProps) {
  const { t } = useTranslation();
  return (
    <table className="data-table" data-testid="request-diff">
      <thead>
        <tr>
          <th scope="col">{t('requests.key')}</th>
          <th scope="col">{t('requests.action')}</th>
          <th scope="col">{t('requests.values')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          // A request's rows never change order; an insert may have no key.
          // biome-ignore lint/suspicious/noArrayIndexKey: the diff is fixed once submitted
          <tr key={index}>
            <td>{keyText(row.key ?? {})}</td>
            <td>{t(`changeHistory.operations.${row.action}`)}</td>
            <td>
              <ValueDiff
                operation={row.action}
                oldValues={row.oldValues ?? null}
                newValues={row.newValues ?? null}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
