/** The signals that ask a process to end: Ctrl+C, and what supervisors and `kill` send. */
export type ExitSignal = 'SIGINT' | 'SIGTERM';

/**
 * Told of an exit signal. `processEnds`: nothing else in the process handles the signal, so it
 * will end (as it would have without us) once every listener's promise settles.
 */
export type ExitSignalListener = (signal: ExitSignal, processEnds: boolean) => Promise<void>;

const EXIT_SIGNALS: readonly ExitSignal[] = ['SIGINT', 'SIGTERM'];
const listeners = new Set<ExitSignalListener>();
let ending = false;

/**
 * Calls `listener` on SIGINT or SIGTERM until the returned function is called. Listening
 * replaces Node's default (ending the process at once), so when nothing else listens, the
 * signal is raised again once the listeners are done: the process ends by it, as it would have.
 */
export function onExitSignal(listener: ExitSignalListener): () => void {
  if (listeners.size === 0) {
    for (const signal of EXIT_SIGNALS) process.on(signal, handleExitSignal);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && !ending) stopListening();
  };
}

function handleExitSignal(signal: ExitSignal): void {
  const processEnds = process.listenerCount(signal) === 1;
  // A second signal while the first is being handled: end now.
  if (processEnds && ending) {
    endBy(signal);
    return;
  }
  ending ||= processEnds;
  const handled = Promise.allSettled(
    [...listeners].map((listener) => listener(signal, processEnds)),
  );
  if (processEnds) void handled.then(() => endBy(signal));
}

function endBy(signal: ExitSignal): void {
  stopListening();
  process.kill(process.pid, signal);
}

function stopListening(): void {
  for (const signal of EXIT_SIGNALS) process.off(signal, handleExitSignal);
}
