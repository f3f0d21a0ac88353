import { useTranslation } from 'react-i18next';
import type { TableInfoFieldsFragment } from '../generated/graphql';

type Waiters = TableInfoFieldsFragment['waiters'];

const names = (waiters: Waiters) => waiters.map((waiter) => waiter.editor).join(', ');

// A waiter whose turn came has the table held for them: they no longer wait, they may start.
const hasTurn = (waiter: Waiters[number]) => waiter.reservedUntil != null;

/**
 * Who the table is held for and who waits for it, first in line first: "Held for alice, whose
 * turn it is · 2 waiting: bob, carol". The user's own turn is left out: their page says it.
 */
export function WaitingLine({ waiters, user }: { waiters: Waiters; user: string }) {
  const { t } = useTranslation();
  const turn = waiters.filter((waiter) => hasTurn(waiter) && waiter.editor !== user);
  const waiting = waiters.filter((waiter) => !hasTurn(waiter));
  const parts = [
    turn.length > 0 ? t('turnInLine.heldFor', { editors: names(turn) }) : null,
    waiting.length > 0
      ? t('queue.waiters', { count: waiting.length, editors: names(waiting) })
      : null,
  ].filter((part) => part !== null);
  if (parts.length === 0) return null;
  return (
    <p className="waiting-line" data-testid="waiting-line">
      {parts.join(' · ')}
    </p>
  );
}

/** How many wait for the table, for a list of tables; who they are on hover. */
export function WaitingCount({ waiters }: { waiters: Waiters }) {
  const { t } = useTranslation();
  const waiting = waiters.filter((waiter) => !hasTurn(waiter));
  if (waiting.length === 0) return null;
  return (
    <span className="waiting-count" title={names(waiting)} data-testid="waiting-count">
      {t('queue.waitingCount', { count: waiting.length })}
    </span>
  );
}
