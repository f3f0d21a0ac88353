import { RETRY_AFTER_SECONDS } from '../../process/databaseUnreachable';
import { type CallerSlots, createCallerSlots } from '../callerSlots';
import type { ExportLimits } from './exportLimits';

/** The exports this process runs, so that no one caller can keep everyone else from exporting. */
export function createExportSlots(limits: Pick<ExportLimits, 'atOnce' | 'perCaller'>): CallerSlots {
  return createCallerSlots(limits, {
    ownBusy: 'Your other export is still running; try again once it is done.',
    allBusy: 'Other exports are running; try again shortly.',
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
}
