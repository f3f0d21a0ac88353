import { constants } from 'node:os';
import { createTablelockClient } from '../createTablelockClient';
import type { ExitSignal } from '../exitSignals';
import { isTablelockError } from '../TablelockError';
import { commandEnvironment } from './commandEnvironment';
import { connectionOf, parseCommandLine } from './commandLine';
import { EXIT } from './exitCodes';
import { parseDuration, parseSeconds } from './parseDuration';
import { type RunningCommand, runCommand } from './runCommand';
import { UsageError } from './UsageError';

const DEFAULT_GRACE_MS = 10_000;

/**
 * `tablelock lock <table>... [--rows 11,12] [--wait 5m] [--lease 2m] [--grace 10s] [--pass-api-key] -- <command> [args...]`:
 * runs the command while holding the tables; its exit status, or EXIT.lockBusy / lockLost.
 */
export async function lockCommand(args: string[]): Promise<number> {
  const split = args.indexOf('--');
  const [program, ...programArgs] = split === -1 ? [] : args.slice(split + 1);
  const { values, positionals: tables } = parseCommandLine(
    split === -1 ? args : args.slice(0, split),
    {
      wait: { type: 'string' },
      lease: { type: 'string' },
      grace: { type: 'string' },
      rows: { type: 'string' },
      'pass-api-key': { type: 'boolean' },
    },
  );
  if (tables.length === 0)
    throw new UsageError('Name the tables to lock: tablelock lock <table>... -- <command>');
  if (!program)
    throw new UsageError(
      'Give the command to run after --: tablelock lock <table>... -- <command>',
    );
  const config = connectionOf(values);
  const wait = values.wait === undefined ? undefined : parseSeconds(values.wait, '--wait');
  const leaseSeconds =
    values.lease === undefined ? undefined : parseSeconds(values.lease, '--lease');
  const graceMs =
    values.grace === undefined ? DEFAULT_GRACE_MS : parseDuration(values.grace, '--grace');

  const stopWaiting = new AbortController();
  let command: RunningCommand | undefined;
  let commandStatus: number | undefined;
  let received: ExitSignal | undefined;
  let stoppedAsLost = false;
  // Passed on to the command; it ends when it chooses, and then the lock is released.
  const forward = (signal: ExitSignal) => {
    received = signal;
    if (command) command.kill(signal);
    else stopWaiting.abort(new DOMException(`Received ${signal}.`, 'AbortError'));
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  try {
    return await createTablelockClient(config).withTableLock(
      tables,
      async (lock) => {
        const running = runCommand(
          program,
          programArgs,
          commandEnvironment(config, lock.tokens, values['pass-api-key'] === true),
        );
        command = running;
        const stopIfLost = () => {
          if (!isTablelockError(lock.signal.reason, 'LOCK_LOST')) return;
          process.stderr.write(
            `tablelock: ${lock.signal.reason.message} Stopping ${program} (SIGTERM, SIGKILL after ${graceMs} ms).\n`,
          );
          stoppedAsLost = true;
          running.terminate(graceMs);
        };
        if (lock.signal.aborted) stopIfLost();
        else lock.signal.addEventListener('abort', stopIfLost, { once: true });
        commandStatus = await running.exited;
        return commandStatus;
      },
      {
        wait,
        leaseSeconds,
        signal: stopWaiting.signal,
        ...(values.rows !== undefined ? { rows: scopeRowsOf(values.rows) } : {}),
      },
    );
  } catch (error) {
    if (isTablelockError(error, 'LOCK_LOST')) {
      if (!stoppedAsLost) process.stderr.write(`tablelock: ${error.message}\n`);
      return EXIT.lockLost;
    }
    if (commandStatus !== undefined) {
      const why = error instanceof Error ? error.message : String(error);
      process.stderr.write(
        `tablelock: ${program} ended, but the lock could not be released (${why}); it ends when its lease runs out.\n`,
      );
      return commandStatus;
    }
    if (received) return 128 + constants.signals[received];
    throw error;
  } finally {
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
  }
}

/** `--rows 11,12`: the values of a row scope, comma-separated. */
function scopeRowsOf(given: string): string[] {
  const rows = given.split(',').map((value) => value.trim());
  if (rows.some((value) => value === '')) {
    throw new UsageError(
      '--rows takes values of the row-lock column, comma-separated: --rows 11,12',
    );
  }
  return rows;
}
