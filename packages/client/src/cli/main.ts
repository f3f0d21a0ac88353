import { EXIT, exitCodeOf } from './exitCodes';
import { lockCommand } from './lockCommand';
import { forceReleaseCommand, releaseCommand } from './releaseCommands';
import { requestsCommand } from './requestsCommand';
import { statusCommand } from './statusCommand';
import { UsageError } from './UsageError';
import { USAGE } from './usage';

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  lock: lockCommand,
  status: statusCommand,
  release: releaseCommand,
  'force-release': forceReleaseCommand,
  requests: requestsCommand,
};

/** Runs the command line `args`; resolves with the exit status. */
async function main([name, ...args]: string[]): Promise<number> {
  if (name === undefined || name === 'help' || asksForHelp([name, ...args])) {
    process.stdout.write(USAGE);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  try {
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`Unknown command ${name}.`);
    return await command(args);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `tablelock: ${message}${error instanceof UsageError ? ' (tablelock --help)' : ''}\n`,
    );
    return exitCodeOf(error);
  }
}

/** --help or -h among the command line's own arguments (not the locked command's, after --). */
function asksForHelp(args: string[]): boolean {
  const split = args.indexOf('--');
  return (split === -1 ? args : args.slice(0, split)).some(
    (arg) => arg === '--help' || arg === '-h',
  );
}

process.exitCode = await main(process.argv.slice(2));
