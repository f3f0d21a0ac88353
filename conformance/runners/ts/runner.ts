// The TypeScript client's runner of the conformance kit: one JSON request a line on stdin, one
// answer a line on stdout (README, "Runner protocol"). It calls the client as a job would, through
// its public API only, and keeps lock blocks open across requests.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  createTablelockClient,
  isTablelockError,
  type TableLock,
  type TablelockClient,
} from '@tablelock/client';
import pg from 'pg';

type Args = Record<string, unknown>;

/** The error a block raises of its own, when a step asks it to fail. */
class WorkFailed extends Error {
  readonly code = 'WORK_FAILED';
}

interface OpenLock {
  lock: TableLock;
  tables: string[];
  /** Ends the block: normally, or by its own error. */
  finish(fail: boolean): void;
  /** How withTableLock ended. */
  ended: Promise<unknown>;
}

interface RunningCommand {
  child: ChildProcess;
  exited: Promise<{ exitCode: number | null; signal: string | null; stdout: string }>;
}

const TABLELOCK_BIN = new URL('../../../packages/client/bin/tablelock.js', import.meta.url)
  .pathname;

const clients = new Map<string, TablelockClient>();
const locks = new Map<string, OpenLock>();
const commands = new Map<string, RunningCommand>();

const need = <T>(map: Map<string, T>, name: unknown, what: string): T => {
  const found = map.get(String(name));
  if (!found) throw new Error(`No ${what} is called ${String(name)}.`);
  return found;
};

/** The one table a step names, or the lock's only table. */
function tableOf(open: OpenLock, args: Args): string {
  const table = (args.table as string | undefined) ?? open.tables[0];
  if (!table || (args.table === undefined && open.tables.length > 1)) {
    throw new Error('Name the table: the lock holds several.');
  }
  return table;
}

/** Writes `content` to a file named `fileName` in a directory of its own: what a job imports. */
async function fileWith(fileName: string, content: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'tablelock-import-')), fileName);
  await writeFile(path, content);
  return path;
}

async function enterLock(args: Args) {
  const client = need(clients, args.client, 'client');
  const tables = args.tables as string[];
  let granted!: (lock: TableLock) => void;
  const grant = new Promise<TableLock>((resolve) => {
    granted = resolve;
  });
  let finish!: (fail: boolean) => void;
  const finishing = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  const ended = client.withTableLock(
    tables,
    async (lock) => {
      granted(lock);
      if (await finishing) throw new WorkFailed('The block failed of its own accord.');
      return null;
    },
    {
      ...(args.lease !== undefined ? { leaseSeconds: args.lease as number | null } : {}),
      ...(args.wait !== undefined ? { wait: args.wait as number } : {}),
      ...(args.rows !== undefined ? { rows: args.rows as string[] } : {}),
    },
  );
  // Its end is awaited by lock.exit; until then a rejection is not unhandled.
  ended.catch(() => {});
  const lock = await Promise.race([
    grant,
    ended.then(() => {
      throw new Error('The block ended before the lock was granted.');
    }),
  ]);
  locks.set(String(args.lock), { lock, tables, finish, ended });
  return { tokens: lock.tokens };
}

async function useLockIn(open: OpenLock, args: Args) {
  const db = new pg.Client({ connectionString: String(args.databaseUrl) });
  await db.connect();
  try {
    await db.query('BEGIN');
    await open.lock.useIn(db);
    const result = await db.query(String(args.sql));
    await db.query('COMMIT');
    return { rowcount: result.rowCount };
  } finally {
    await db.end();
  }
}

async function rowsOf(client: TablelockClient, args: Args) {
  const keys: unknown[] = [];
  for await (const row of client.rows(String(args.table), {
    pageSize: (args.pageSize as number | undefined) ?? 500,
  })) {
    keys.push(row.key);
  }
  return { count: keys.length, first: keys[0] ?? null, last: keys.at(-1) ?? null };
}

async function changesOf(client: TablelockClient, args: Args) {
  const limit = Number(args.limit);
  const stop = new AbortController();
  const events: { table: string; type: string }[] = [];
  let cursor: string | null = null;
  for await (const event of client.changes({
    after: (args.after as string | null | undefined) ?? null,
    ...(args.tables ? { tables: args.tables as string[] } : {}),
    ...(args.types ? { types: args.types as string[] } : {}),
    pollIntervalMs: 100,
    signal: stop.signal,
  })) {
    events.push({ table: event.table, type: event.type });
    cursor = event.cursor;
    if (events.length >= limit) stop.abort();
  }
  return { events, cursor };
}

function startCommand(args: Args): RunningCommand {
  const child = spawn(
    process.execPath,
    [TABLELOCK_BIN, 'lock', ...(args.tables as string[]), '--', ...(args.command as string[])],
    {
      env: {
        ...process.env,
        TABLELOCK_URL: String(args.url),
        TABLELOCK_API_KEY: String(args.apiKey),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const exited = new Promise<{ exitCode: number | null; signal: string | null; stdout: string }>(
    (resolve) =>
      child.on('close', (exitCode, signal) => resolve({ exitCode, signal, stdout: stdout.trim() })),
  );
  return { child, exited };
}

async function reset() {
  for (const open of locks.values()) open.finish(false);
  await Promise.allSettled([...locks.values()].map((open) => open.ended));
  for (const { child } of commands.values()) child.kill('SIGKILL');
  await Promise.all([...commands.values()].map(({ exited }) => exited));
  locks.clear();
  commands.clear();
  clients.clear();
}

async function perform(op: string, args: Args): Promise<unknown> {
  switch (op) {
    case 'connect':
      clients.set(
        String(args.client),
        createTablelockClient({
          url: String(args.url),
          apiKey: String(args.apiKey),
          ...(args.retryForSeconds !== undefined
            ? { retryForMs: Number(args.retryForSeconds) * 1000 }
            : {}),
        }),
      );
      return null;
    case 'lock.enter':
      return enterLock(args);
    case 'lock.save': {
      const open = need(locks, args.lock, 'lock');
      return open.lock.saveRows(tableOf(open, args), args.changes as never);
    }
    case 'lock.useIn':
      return useLockIn(need(locks, args.lock, 'lock'), args);
    case 'lock.importFile': {
      const open = need(locks, args.lock, 'lock');
      const path = await fileWith(String(args.fileName), String(args.content));
      return open.lock.importFile(tableOf(open, args), path, { dryRun: args.dryRun !== false });
    }
    case 'lock.submit': {
      const open = need(locks, args.lock, 'lock');
      const result = await open.lock.submitForApproval(tableOf(open, args), {
        changes: args.changes as never,
        ...(args.comment !== undefined ? { comment: String(args.comment) } : {}),
      });
      return { submitted: result.submitted, requestId: result.request?.id ?? null };
    }
    case 'lock.state': {
      const { signal } = need(locks, args.lock, 'lock').lock;
      const lost = signal.aborted && isTablelockError(signal.reason, 'LOCK_LOST');
      return { lost, code: lost ? 'LOCK_LOST' : null };
    }
    case 'lock.exit': {
      const open = need(locks, args.lock, 'lock');
      locks.delete(String(args.lock));
      open.finish(args.fail === true);
      await open.ended;
      return null;
    }
    case 'client.rows':
      return rowsOf(need(clients, args.client, 'client'), args);
    case 'client.importFile': {
      const path = await fileWith(String(args.fileName), String(args.content));
      return need(clients, args.client, 'client').importFile(String(args.table), path, {
        dryRun: args.dryRun !== false,
      });
    }
    case 'client.changes':
      return changesOf(need(clients, args.client, 'client'), args);
    case 'client.waitForDecision': {
      const decision = await need(clients, args.client, 'client').waitForDecision(String(args.id));
      return { state: decision.state, decidedBy: decision.decidedBy ?? null };
    }
    case 'cli.start':
      commands.set(String(args.process), startCommand(args));
      return null;
    case 'cli.signal':
      need(commands, args.process, 'command').child.kill(String(args.signal) as NodeJS.Signals);
      return null;
    case 'cli.wait':
      return need(commands, args.process, 'command').exited;
    case 'reset':
      await reset();
      return null;
    default:
      throw new Error(`No op is called ${op}.`);
  }
}

/** An error as the protocol carries it: the client's code, or the database's SQLSTATE. */
function errorAnswer(error: unknown) {
  if (isTablelockError(error)) {
    return {
      code: error.code,
      type: error.name,
      message: error.message,
      extensions: error.extensions,
    };
  }
  if (error instanceof WorkFailed) {
    return { code: error.code, type: 'WorkFailed', message: error.message };
  }
  if (error instanceof pg.DatabaseError) {
    return { code: error.code ?? 'DATABASE_ERROR', type: 'DatabaseError', message: error.message };
  }
  // Anything else is a bug of the client's: its type says what escaped.
  const type = error instanceof Error ? error.name : (error?.constructor?.name ?? typeof error);
  const message = error instanceof Error ? error.message : JSON.stringify(error);
  return { code: 'CLIENT_ERROR', type, message };
}

for await (const line of createInterface({ input: process.stdin })) {
  const { id, op, args } = JSON.parse(line) as { id: number; op: string; args: Args };
  const answer = await perform(op, args).then(
    (value) => ({ id, ok: true, value: value ?? null }),
    (error: unknown) => ({ id, ok: false, error: errorAnswer(error) }),
  );
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
await reset();
