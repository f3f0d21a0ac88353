import { useTranslation } from 'react-i18next';
import type { TableInfoFieldsFragment } from '../generated/graphql';

type Waiters = TableInfoFieldsFragment['waiters'];

const names = (waiters: Waiters) => waiters.map((waiter) => waiter.editor).join(', ');

/** Who is waiting in line for the table, first in line first: "2 waiting: bob, carol". */
export function WaitingLine({ waiters }: { waiters: Waiters }) {
  const { t } = useTranslation();
  if (waiters.length === 0) return null;
  return (
    <p className="waiting-line" data-testid="waiting-line">
      {t('queue.waiters', { count: waiters.length, editors: names(waiters) })}
    </p>
  );
}

/** How many wait for the table, for a list of tables; who they are on hover. */
export function WaitingCount({ waiters }: { waiters: Waiters }) {
  const { t } = useTranslation();
  if (waiters.length === 0) return null;
  return (
    <span className="waiting-count" title={names(waiters)} data-testid="waiting-count">
      {t('queue.waitingCount', { count: waiters.length })}
    </span>
  );
}
