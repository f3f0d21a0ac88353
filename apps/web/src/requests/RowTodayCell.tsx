import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { RequestRowProblemFieldsFragment as RowProblem } from '../generated/graphql';
import { saveErrorText } from '../ui/saveErrorText';

function problemText(problem: RowProblem, t: TFunction): string {
  if (problem.code === 'ROW_CHANGED') return t('requests.today.changed');
  if (problem.code === 'ROW_DELETED') return t('requests.today.deleted');
  return saveErrorText(problem, t);
}

/** How one row of a pending request stands today: applies, or why approval would refuse it. */
export function RowTodayCell({ problem, checked }: { problem?: RowProblem; checked: boolean }) {
  const { t } = useTranslation();
  if (!checked) return <span className="muted">{t('requests.today.notChecked')}</span>;
  if (!problem) return <span data-testid="request-row-today">{t('requests.today.applies')}</span>;
  const today = Object.entries(problem.currentValues ?? {});
  return (
    <div className="request-row-problem" data-testid="request-row-today" data-code={problem.code}>
      <strong>{problemText(problem, t)}</strong>
      {today.length > 0 && (
        <dl className="value-diff">
          {today.map(([column, value]) => (
            <div key={column} className="value-diff-entry">
              <dt>{t('requests.today.now', { column })}</dt>
              <dd>{value ?? t('changeHistory.null')}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
