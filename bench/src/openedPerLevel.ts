import type { Operation } from './runClosedLoop';
import type { Subject } from './sideBySide';

/** A subject whose operation runs on something opened per client level. */
export function openedPerLevel<T>(
  open: (clients: number) => Promise<T>,
  operation: (opened: T) => Operation,
  close: (opened: T) => Promise<void>,
): Subject {
  return {
    async open(clients) {
      const opened = await open(clients);
      return { operation: operation(opened), close: () => close(opened) };
    },
  };
}
