/** Whether the database answers, as this process last saw it. */
export interface DatabaseAvailability {
  /**
   * A request or the sweeper found the database unreachable. The first such report of an
   * outage logs "database unreachable" and starts probing until the database answers again
   * ("database back"): one line each, not a stack trace per request.
   */
  reportUnreachable(error: unknown): void;
  stop(): void;
}
