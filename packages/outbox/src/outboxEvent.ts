import type { EventType } from './eventTypes';

/** One event of the outbox, as the change feed and webhooks give it. */
export interface OutboxEvent {
  /** Its position in the outbox: unique, and per table in commit order. */
  id: string;
  table: string;
  type: EventType;
  at: Date;
  /**
   * Lock events: actor, editor, token, reason, details. Changes of rows: changeSetId (its
   * rows: tableChange), actor, token, dbRole, applicationName, inserted, updated, deleted.
   * Policy changes: actor and the settings given. Null once the history it came from is
   * purged (HISTORY_RETENTION_DAYS).
   */
  data: Record<string, unknown> | null;
}
