import { randomUUID } from 'node:crypto';
import type { ApiProcess } from '@tablelock/test-support';
import { postOnOwnConnection } from './postOnOwnConnection';

/** The load's tables; the line's (failoverLine.ts) is none of them nor one they lock. */
export const HARNESS_TABLES = ['regions', 'currencies', 'suppliers', 'customers'];

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

/** A request's answer when done; its error's code when refused (not retried); none when never answered. */
export type Answer = { data: Record<string, { token?: string }> } | { code: string } | undefined;

export interface FailoverLoad {
  readonly acknowledged: Acknowledgement[];
  /** OUTCOME_UNKNOWN answers so far (each retried with its key). */
  outcomeUnknown(): number;
  /** Sends until answered as done or refused, as the clients do; `turn` picks the API first asked. */
  send(
    key: string,
    turn: number,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<Answer>;
  /** Saves a new row behind `token`, then (`release`) releases it; each acknowledged as done. */
  save(key: string, turn: number, table: string, token: string): Promise<void>;
  release(key: string, turn: number, table: string, token: string): Promise<void>;
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

  async function send(
    key: string,
    turn: number,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<Answer> {
    for (let attempt = 0; attempt < 60; attempt++) {
      const api = apis[(turn + attempt) % apis.length] as ApiProcess;
      const outcome = await postOnOwnConnection(
        api.url,
        { authorization: `Bearer ${key}` },
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
      if (error) return { code: String(code) };
      return { data: outcome.body.data as Record<string, { token?: string }> };
    }
    return undefined;
  }

  const done = (answer: Answer) => (answer && 'data' in answer ? answer.data : undefined);

  async function client(index: number, rounds: number) {
    const key = keys[index] as string;
    for (let round = 0; round < rounds; round++) {
      const table = HARNESS_TABLES[(index + round) % HARNESS_TABLES.length] as string;
      const granted = done(await send(key, index, ACQUIRE, { table, key: randomUUID() }));
      const token = granted?.acquireTableLock?.token;
      if (!token) continue;
      acknowledged.push({ action: 'acquire', table, token });
      await save(key, index, table, token);
      await release(key, index, table, token);
    }
  }

  async function save(key: string, turn: number, table: string, token: string) {
    const changes = { inserts: [{ values: newRow(table, rowsSaved++) }] };
    if (done(await send(key, turn, SAVE, { table, token, changes, key: randomUUID() }))) {
      acknowledged.push({ action: 'save', table, token });
    }
  }

  async function release(key: string, turn: number, table: string, token: string) {
    if (done(await send(key, turn, RELEASE, { table, token, key: randomUUID() }))) {
      acknowledged.push({ action: 'release', table, token });
    }
  }

  return {
    acknowledged,
    outcomeUnknown: () => outcomeUnknown,
    send,
    save,
    release,
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
    case 'customers':
      return { id, name: 'harness', region_id: '1', registered_on: '2025-01-01' };
    default:
      return {
        ...{ id, name: 'harness', region_id: '1', currency_code: 'EUR' },
        contract_start: '2025-01-01',
      };
  }
}
