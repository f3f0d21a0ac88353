/**
 * A database session whose transaction holds a lock registry row that a lock change needs: one
 * of tablelock's own changes in flight, or a transaction outside tablelock (a DBA's psql left
 * open). What a DBA needs to find it and end it.
 */
export interface RowHolder {
  pid: number;
  dbRole: string;
  applicationName: string | null;
  /** When its transaction began (ISO 8601); null where Postgres does not show it to tablelock's role. */
  since: string | null;
}

/** The holders in words, e.g. `held by database role etl (application nightly, pid 42) in a transaction since …`. */
export function describeRowHolders(holders: RowHolder[]): string {
  return holders
    .map((holder) => {
      const session = [
        holder.applicationName === null ? null : `application ${holder.applicationName}`,
        `pid ${holder.pid}`,
      ]
        .filter((part) => part !== null)
        .join(', ');
      const since = holder.since === null ? '' : ` in a transaction since ${holder.since}`;
      return `held by database role ${holder.dbRole} (${session})${since}`;
    })
    .join('; ');
}
