export type LockOperationResult = 'granted' | 'refused' | 'error';

/** What this process counts for Prometheus (see metrics/apiMetrics). */
export interface ApiMetrics {
  contentType: string;
  /** The exposition text, with the lock gauges read from the database now. */
  render(): Promise<string>;
  recordLockOperation(operation: string, result: LockOperationResult): void;
  recordGraphqlRequest(operation: string, seconds: number): void;
  recordHttpResponse(code: number): void;
  recordFencingRefusal(): void;
  recordLeaseExpiries(count: number): void;
  recordSave(rows: number): void;
}
