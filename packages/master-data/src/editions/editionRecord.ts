import type { Edition as StoredEdition } from '@tablelock/db';
import type { ChangedRequestRow, ScheduleFailure } from '../changeRequests/changeRequestRecord';

export type EditionState = 'scheduled' | 'applied' | 'failed';

/** A row that kept an edition from applying, and the request it belongs to. */
export type EditionFailedRow = ChangedRequestRow & { changeRequestId: string; tableName: string };

export interface EditionFailure extends Omit<ScheduleFailure, 'rows'> {
  rows: EditionFailedRow[];
}

/** An edition as readers see it (its requests are read apart). */
export interface EditionRecord {
  id: string;
  name: string;
  effectiveAt: Date;
  state: EditionState;
  createdBy: string;
  createdAt: Date;
  appliedAt: Date | null;
  failedAt: Date | null;
  lateBySeconds: number | null;
  failure: EditionFailure | null;
}

export function editionOf(stored: StoredEdition): EditionRecord {
  return {
    id: stored.id.toString(),
    name: stored.name,
    effectiveAt: stored.effectiveAt,
    state: stored.state,
    createdBy: stored.createdBy,
    createdAt: stored.createdAt,
    appliedAt: stored.appliedAt,
    failedAt: stored.failedAt,
    lateBySeconds: stored.lateBySeconds,
    failure: stored.failure as EditionFailure | null,
  };
}
