import { randomUUID } from 'node:crypto';
import { postOnOwnConnection } from './postOnOwnConnection';

/** The load's tables: customers and suppliers reference regions, so their grants contend too. */
export const ROLLING_LOAD_TABLES = ['regions', 'categories', 'customers', 'suppliers'];

const ACQUIRE = `mutation($table: String!, $key: String) {
  acquireTableLock(table: $table, leaseSeconds: 60, idempotencyKey: $key) { token } }`;
const SAVE = `mutation($table: String!, $token: String!, $changes: RowChanges!, $key: String) {
  saveRows(table: $table, token: $token, changes: $changes, idempotencyKey: $key) {
    saved rowErrors { message } } }`;
const RELEASE = `mutation($table: String!, $token: String!, $key: String) {
  releaseTableLock(table: $table, token: $token, idempotencyKey: $key) { status } }`;

/** Answers that may pass (as @tablelock/client retries them): tried again, with the same key. */
const RETRYABLE_CODES = new Set(['SERVICE_UNAVAILABLE', 'OUTCOME_UNKNOWN']);
/** A grant another client holds: the client tries its next table. */
const CONTENDED = 'LOCK_CONFLICT';
/** Far more tries than a process's replacement needs, while its partner answers. */
const MAX_ATTEMPTS = 200;

/** A mutation's data, as far as the load reads it. */
interface Answer {
  acquireTableLock?: { token: string };
  saveRows?: { saved: boolean; rowErrors: { message: string }[] };
}

/** What a client was told was done. */
export interface Acknowledgement {
  action: 'acquire' | 'save' | 'release';
  table: string;
  token: string;
  /** The row a save inserted. */
  rowId?: number;
}

export interface RollingLoad {
  readonly acknowledged: Acknowledgement[];
  /** Every answer that was neither done, LOCK_CONFLICT nor retryable, and requests never answered. */
  readonly errors: string[];
  /** When each acquire-save-release cycle ended (performance.now()). */
  readonly cycleEnds: number[];
  /** Requests tried again: no answer (refused, reset) or a retryable code. */
  retries(): number;
  /** Lets each client finish its cycle, then resolves. */
  stop(): Promise<void>;
}

/**
 * Clients that each loop until stopped: take a table (on LOCK_CONFLICT, on to the next), insert a
 * row behind the grant's token, release it. Each request goes to the API at `urls[turn]`, and on
 * to the next whenever it is not answered (a process being replaced refuses connections) or is
 * answered with a retryable code, with the same idempotency key every time.
 */
export function startRollingLoad(urls: string[], keys: string[]): RollingLoad {
  const acknowledged: Acknowledgement[] = [];
  const errors: string[] = [];
  const cycleEnds: number[] = [];
  let retries = 0;
  let nextRowId = 50_000;
  let stopping = false;

  async function send(
    client: number,
    what: string,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<Answer | 'contended' | undefined> {
    const key = keys[client] as string;
    const idempotencyKey = randomUUID();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const url = urls[(client + attempt) % urls.length] as string;
      const outcome = await postOnOwnConnection(url, { authorization: `Bearer ${key}` }, query, {
        ...variables,
        key: idempotencyKey,
      });
      if (outcome.kind === 'unanswered') {
        retries++;
        continue;
      }
      if (outcome.kind === 'cut') {
        errors.push(`${what}: answer cut (${outcome.code}) by ${url}`);
        return undefined;
      }
      const code = outcome.body.errors?.[0]?.extensions?.code;
      if (code === undefined) return outcome.body.data as Answer;
      if (code === CONTENDED && query === ACQUIRE) return 'contended';
      if (typeof code === 'string' && RETRYABLE_CODES.has(code)) {
        retries++;
        continue;
      }
      errors.push(`${what}: ${String(code)} from ${url}: ${outcome.body.errors?.[0]?.message}`);
      return undefined;
    }
    errors.push(`${what}: no answer in ${MAX_ATTEMPTS} tries`);
    return undefined;
  }

  async function client(index: number) {
    for (let round = 0; !stopping; round++) {
      const table = ROLLING_LOAD_TABLES[(index + round) % ROLLING_LOAD_TABLES.length] as string;
      const granted = await send(index, `acquire ${table}`, ACQUIRE, { table });
      if (granted === 'contended') continue;
      const token = granted?.acquireTableLock?.token;
      if (!token) return;
      acknowledged.push({ action: 'acquire', table, token });
      const rowId = nextRowId++;
      const changes = { inserts: [{ values: newRow(table, rowId) }] };
      const saved = await send(index, `save ${table}`, SAVE, { table, token, changes });
      if (saved === undefined || saved === 'contended') return;
      if (!saved.saveRows?.saved) {
        errors.push(`save ${table}: not saved: ${JSON.stringify(saved.saveRows?.rowErrors)}`);
        return;
      }
      acknowledged.push({ action: 'save', table, token, rowId });
      if (!(await send(index, `release ${table}`, RELEASE, { table, token }))) return;
      acknowledged.push({ action: 'release', table, token });
      cycleEnds.push(performance.now());
    }
  }

  const clients = keys.map((_, index) => client(index));
  return {
    acknowledged,
    errors,
    cycleEnds,
    retries: () => retries,
    stop: async () => {
      stopping = true;
      await Promise.all(clients);
    },
  };
}

/** A new row for `table` with primary key `id` (values as the grid sends them). */
function newRow(table: string, id: number): Record<string, string> {
  const base = { id: String(id), name: 'rolling upgrade' };
  switch (table) {
    case 'regions':
      return { ...base, code: `U${id}` };
    case 'customers':
      return { ...base, region_id: '1', registered_on: '2025-01-01' };
    case 'suppliers':
      return { ...base, region_id: '1', currency_code: 'EUR', contract_start: '2025-01-01' };
    default:
      return base;
  }
}
