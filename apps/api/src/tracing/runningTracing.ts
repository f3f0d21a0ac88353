/**
 * How to stop the tracing that the bootstrap (register.ts) started, for main.ts's shutdown.
 * Both entries import this module, so the build gives them one shared instance of it; main.ts
 * thereby never loads OpenTelemetry's SDK itself.
 */
let stopTracing: (() => Promise<void>) | undefined;

export function tracingStarted(stop: () => Promise<void>): void {
  stopTracing = stop;
}

/** Exports the spans still buffered and stops; nothing to do when tracing never started. */
export function flushAndStopTracing(): Promise<void> | undefined {
  return stopTracing?.();
}
