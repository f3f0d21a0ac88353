import { runningProcess } from '@tablelock/db';

const CHECK_EVERY_MS = 1_000;

/**
 * Calls `onEnded` once the process `pid` has ended. The start command (scripts/with-deps.mjs)
 * runs the app in a process group of its own, which a SIGKILL of the start command's group does
 * not reach: the app then notices that the start command is gone and stops itself, its embedded
 * Postgres with it. A process that cannot be looked at counts as running. Returns the way to
 * stop watching.
 */
export function whenProcessEnds(pid: number, onEnded: () => void): () => void {
  const timer = setInterval(async () => {
    const running = await runningProcess(pid).catch(() => true);
    if (running) return;
    clearInterval(timer);
    onEnded();
  }, CHECK_EVERY_MS);
  // The watch must not itself keep the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
