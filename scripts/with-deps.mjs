// `npm start` and `npm test` must work on a machine that has only Node.js: this installs the
// workspace with the pinned pnpm (fetched by npx when pnpm is not the caller) and then runs
// the named root script with it. TABLELOCK_SKIP_INSTALL=1 leaves out the install, for the tests
// that run this in a workspace already installed.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const script = process.argv[2];
// `pnpm run` says where its own script is; `pnpm exec` and its children do not.
const calledByPnpm =
  process.env.npm_config_user_agent?.startsWith('pnpm/') && Boolean(process.env.npm_execpath);
const pnpm = calledByPnpm
  ? [process.execPath, process.env.npm_execpath]
  : ['npx', '--yes', 'pnpm@10.34.9'];
// Where there are process groups, each step runs in one of its own (Windows has none).
const ownGroup = process.platform !== 'win32';
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let stopRequested = false;
// The app's own scripts: the app writes its pid here once it runs, and a stop then goes to it
// alone. Sent to the whole group, the signal also ends the shells between (pnpm runs scripts
// with sh), and every pnpm above reports the app's clean stop as a failed command in red.
const appPidFile = ['app:start', 'app:serve'].includes(script)
  ? join(tmpdir(), `tablelock-app-${process.pid}.pid`)
  : null;

/** The app's pid while it runs; null before it has started (an install, a build) or after. */
function runningApp() {
  if (!appPidFile) return null;
  try {
    const pid = Number(readFileSync(appPidFile, 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

function run(args) {
  const [command, ...rest] = [...pnpm, ...args];
  const child = spawn(command, rest, {
    stdio: 'inherit',
    detached: ownGroup,
    // A SIGKILL of this process's group cannot be forwarded: the app watches this pid instead
    // and stops itself, its Postgres with it, when this process is gone.
    env: {
      ...process.env,
      TABLELOCK_STOP_WITH_PID: String(process.pid),
      ...(appPidFile ? { TABLELOCK_APP_PID_FILE: appPidFile } : {}),
    },
  });
  // A stop (Ctrl+C, SIGTERM, a closed terminal) goes to the step's whole process group as the
  // SIGINT of a Ctrl+C: the app then stops its servers (embedded Postgres included) and every
  // layer in between (pnpm, sh) waits for it. pnpm itself, sent SIGTERM, would exit at once
  // and leave the app running.
  const forward = () => {
    stopRequested = true;
    try {
      const app = runningApp();
      if (app) process.kill(app, 'SIGINT');
      else if (ownGroup) process.kill(-child.pid, 'SIGINT');
      else child.kill('SIGINT');
    } catch {
      // The step has ended already.
    }
  };
  for (const signal of STOP_SIGNALS) process.on(signal, forward);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      for (const stopSignal of STOP_SIGNALS) process.off(stopSignal, forward);
      // pnpm reports an interrupted script with 130 even when the app stopped cleanly; a stop
      // that was asked for is a success.
      const stoppedAsAsked = stopRequested && (code === 0 || code === 130 || signal === 'SIGINT');
      resolve(stoppedAsAsked ? 0 : (code ?? 1));
    });
  });
}

const steps = [['install'], ['run', script, ...process.argv.slice(3)]];
for (const args of process.env.TABLELOCK_SKIP_INSTALL === '1' ? steps.slice(1) : steps) {
  const code = await run(args);
  // After a stop, the next step does not start.
  if (code !== 0 || stopRequested) {
    if (appPidFile) rmSync(appPidFile, { force: true });
    process.exit(code);
  }
}
if (appPidFile) rmSync(appPidFile, { force: true });
