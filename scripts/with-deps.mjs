// `npm start` and `npm test` must work on a machine that has only Node.js: this installs the
// workspace with the pinned pnpm (fetched by npx when pnpm is not the caller) and then runs
// the named root script with it.
import { spawn } from 'node:child_process';

const script = process.argv[2];
const calledByPnpm = process.env.npm_config_user_agent?.startsWith('pnpm/');
const pnpm = calledByPnpm
  ? [process.execPath, process.env.npm_execpath]
  : ['npx', '--yes', 'pnpm@10.34.9'];

function run(args) {
  const [command, ...rest] = [...pnpm, ...args];
  const child = spawn(command, rest, { stdio: 'inherit' });
  // The child shuts down its own servers (embedded Postgres included); pass signals on and wait.
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

for (const args of [['install'], ['run', script, ...process.argv.slice(3)]]) {
  const code = await run(args);
  if (code !== 0) process.exit(code);
}
