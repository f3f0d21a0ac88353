import { type CallerSlots, createCallerSlots } from '../callerSlots';

/** Imports one API process runs at once: each holds a database connection while it works. */
export const MAX_IMPORTS_AT_ONCE = 4;
/** Imports one user or API key runs at once in one process. */
export const MAX_IMPORTS_PER_CALLER = 2;

/** The imports this process runs: one caller cannot take them all. */
export function createImportSlots(
  limits = { atOnce: MAX_IMPORTS_AT_ONCE, perCaller: MAX_IMPORTS_PER_CALLER },
): CallerSlots {
  return createCallerSlots(limits, {
    ownBusy: `You have ${limits.perCaller} imports under way; wait for one to end.`,
    allBusy: 'Other imports are under way; try again shortly.',
    retryAfterSeconds: 10,
  });
}
