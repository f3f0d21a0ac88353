import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { API_DIR, COMPILED_CLI } from '@tablelock/test-support';

/**
 * Runs the compiled operator command line (`node dist/cli.js …args`) in environment `env`
 * with `input` on standard input; its status and output. `apiDir`: the apps/api whose build it
 * runs (another release's, in the upgrade drill).
 */
export async function runOperatorCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  input = '',
  apiDir = API_DIR,
) {
  const child = spawn(process.execPath, [...COMPILED_CLI, ...args], {
    cwd: apiDir,
    env: { LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(`${input}\n`);
  const [code] = await once(child, 'exit');
  return { code: code as number | null, stdout, stderr };
}
