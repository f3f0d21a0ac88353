/**
 * Where a transfer the user waits for stands, for the progress panel: the file going up, the
 * server checking or writing rows (no measure but time), or a file coming down. `since` is when
 * this phase began (Date.now()).
 */
export type TransferProgress =
  | { phase: 'upload'; file: string; loaded: number; total: number; since: number }
  | { phase: 'checking'; since: number }
  | { phase: 'writing'; since: number }
  | { phase: 'download'; file: string; loaded: number; total: number | null; since: number };
