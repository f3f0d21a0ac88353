import { randomUUID } from 'node:crypto';
import type { ApiProcess } from '@tablelock/test-support';
import { postOnOwnConnection } from './postOnOwnConnection';

export const HARNESS_TABLES = ['regions', 'currencies', 'categories', 'suppliers'];

const ACQUIRE = `mutation($table: String!, $key: String) {
  acquireTableLock(table: $table, leaseSeconds: 15, idempotencyKey: $key) { token } }`;
const SAVE = `mutation($table: String!, $token: String!, $changes: RowChanges!, $key: String) {
  saveRows(table: $table, token: $token, changes: $changes, idempotencyKey: $key) { saved } }`;
const RELEASE = `mutation($table: String!, $token: String!, $key: String) {
  releaseTableLock(table: $table, token: $token, idempotencyKey: $key) { status } }`;

/** What a client was told was done, in the order the answers came. */
export interface Acknowledgement {
  action: 'acquire' | 'save' | 'release';
  table: string;
  token: string;
}

export interface FailoverLoad {
  readonly acknowledged: Acknowledgement[];
  /** OUTCOME_UNKNOWN answers so far (each retried with its key). */
  outcomeUnknown(): number;
  /** Every client takes `rounds` turns: take a table if free, save a row into it, release it. */
  run(rounds: number): Promise<void>;
}

/**
 * Clients that each take a table (LOCK_CONFLICT when another has it: on to the next), save a
 * row behind the grant's token and release it, through two API processes in turn. A request is sent until it is answered as done or
 * refused, with the same idempotency key every time: SERVICE_UNAVAILABLE and OUTCOME_UNKNOWN
 * are tried again, as @tablelock/client does.
 */
export function failoverLoad(apis: ApiProcess[], keys: string[]): FailoverLoad {
  const acknowledged: Acknowledgement[] = [];
  let outcomeUnknown = 0;
  let rowsSaved = 0;

  async function send(client: number, query: string, variables: Record<string, unknown>) {
    for (let attempt = 0; attempt < 60; attempt++) {
      const api = apis[(client + attempt) % apis.length] as ApiProcess;
      const outcome = await postOnOwnConnection(
        api.url,
        { authorization: `Bearer ${keys[client]}` },
        query,
        variables,
      );
      if (outcome.kind !== 'answered') continue;
      const [error] = outcome.body.errors ?? [];
      const code = error?.extensions?.code;
      if (code === 'OUTCOME_UNKNOWN') outcomeUnknown++;
      if (code === 'OUTCOME_UNKNOWN' || code === 'SERVICE_UNAVAILABLE') {
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      return error ? undefined : (outcome.body.data as Record<string, { token?: string }>);
    }
    return undefined;
  }

  async function client(index: number, rounds: number) {
    for (let round = 0; round < rounds; round++) {
      const table = HARNESS_TABLES[(index + round) % HARNESS_TABLES.length] as string;
      const granted = await send(index, ACQUIRE, { table, key: randomUUID() });
      const token = granted?.acquireTableLock?.token;
      if (!token) continue;
      acknowledged.push({ action: 'acquire', table, token });
      const changes = { inserts: [{ values: newRow(table, rowsSaved++) }] };
      if (await send(index, SAVE, { table, token, changes, key: randomUUID() })) {
        acknowledged.push({ action: 'save', table, token });
      }
      if (await send(index, RELEASE, { table, token, key: randomUUID() })) {
        acknowledged.push({ action: 'release', table, token });
      }
    }
  }

  return {
    acknowledged,
    outcomeUnknown: () => outcomeUnknown,
    run: async (rounds) => {
      await Promise.all(keys.map((_, index) => client(index, rounds)));
    },
  };
}

/** A row for `table` that no other save of the run inserts (values as the grid sends them). */
function newRow(table: string, n: number): Record<string, string> {
  const id = String(10_000 + n);
  switch (table) {
    case 'regions':
      return { id, code: `H${id}`, name: 'harness' };
    case 'currencies':
      return { code: String(n % 1000).padStart(3, '0'), name: 'harness', minor_units: '2' };
    case 'categories':
      return { id, name: 'harness' };
    default:
      return {
        ...{ id, name: 'harness', region_id: '1', currency_code: 'EUR' },
        contract_start: '2025-01-01',
      };
  }
}
