// `pnpm dev`: the API from its TypeScript source (GraphQL on :4000; `npm start` runs it
// compiled) and the web app's Vite dev server (hot reload on :5173, proxying /graphql to the
// API) side by side. Ctrl+C stops both; if either stops on its own, so does the other.
import { spawn } from 'node:child_process';

const pnpm = process.env.npm_execpath
  ? [process.execPath, process.env.npm_execpath]
  : ['npx', '--yes', 'pnpm@10.34.9'];

const children = [
  ['@tablelock/api', 'dev'],
  ['@tablelock/web', 'dev'],
].map(([name, script]) => {
  const [command, ...args] = [...pnpm, '--filter', name, script];
  return spawn(command, args, { stdio: 'inherit' });
});

let exitCode = 0;
const stopAll = (signal) => {
  for (const child of children) if (child.exitCode === null) child.kill(signal);
};
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
for (const child of children) {
  child.on('exit', (code) => {
    if (code) exitCode = code;
    stopAll('SIGTERM');
  });
}
await Promise.all(children.map((child) => new Promise((resolve) => child.on('close', resolve))));
process.exit(exitCode);
