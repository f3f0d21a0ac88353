/** How many exports run at once, and how long a reader may keep one. */
export interface ExportLimits {
  /** Exports one API process runs at once: each holds a pooled database connection. */
  atOnce: number;
  /** Of those, one caller's (user or API key) at a time. */
  perCaller: number;
  /** A download whose reader takes nothing for this long is cut off. */
  stallMs: number;
  /** No download lasts longer than this from its first byte, however steadily it is read. */
  maxMs: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = {
  atOnce: 2,
  perCaller: 1,
  stallMs: 30_000,
  maxMs: 10 * 60_000,
};
