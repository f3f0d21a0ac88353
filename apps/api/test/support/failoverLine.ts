import { randomUUID } from 'node:crypto';
import { type ApiProcess, poll } from '@tablelock/test-support';
import type { FailoverLoad } from './failoverLoad';
import { postOnOwnConnection } from './postOnOwnConnection';

/** The table the waiters line up for: no table of the load, nor one they lock or reference. */
export const LINE_TABLE = 'categories';

/** Seconds a waiter waits in line at most: the whole run, failover included. */
const WAIT_SECONDS = 150;

// A lease that outlasts a failover: one waiter holds the table through it.
const ACQUIRE = `mutation($table: String!, $key: String, $wait: Int) {
  acquireTableLock(table: $table, leaseSeconds: 120, idempotencyKey: $key, wait: $wait) { token } }`;
const LINE = `query($table: String!) { table(name: $table) { waiters { editor } } }`;

/** What a waiter was told, in the order the answers came: in line, then granted or refused. */
export type LineAcknowledgement =
  | { waiter: string; event: 'inLine' }
  | { waiter: string; event: 'granted'; token: string }
  | { waiter: string; event: 'refused'; code: string };

/** A client of the line: its editor name (`key:<name>`) and its API key. */
export interface LineClient {
  editor: string;
  key: string;
}

export interface FailoverLine {
  readonly acknowledged: LineAcknowledgement[];
  /** Resolves once the first `passBefore` waiters went through and the next holds the table. */
  readonly holding: Promise<void>;
  /** Lets the waiter that holds the table release it, and those behind it go on. */
  resume(): void;
  /** Resolves when every waiter is done. */
  readonly done: Promise<void>;
}

/**
 * Waiters in the line for LINE_TABLE, through both API processes: the holder takes the table,
 * the waiters join one after another (each seen in the line, as the API reads it, before the
 * next joins: that is their order), then the holder releases. Each waiter granted saves a row and
 * releases; from the waiter after the first `passBefore` on, it holds the table until `resume`.
 * So a failover between `holding` and `resume` finds one waiter holding and the rest in line.
 */
export function failoverLine(
  apis: ApiProcess[],
  load: FailoverLoad,
  holder: LineClient,
  waiters: LineClient[],
  passBefore: number,
): FailoverLine {
  const acknowledged: LineAcknowledgement[] = [];
  let resume = () => {};
  const resumed = new Promise<void>((resolve) => {
    resume = resolve;
  });
  let held = () => {};
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });

  const inLine = async (editor: string) => {
    const outcome = await postOnOwnConnection(
      (apis[0] as ApiProcess).url,
      { authorization: `Bearer ${holder.key}` },
      LINE,
      { table: LINE_TABLE },
    );
    if (outcome.kind !== 'answered') return false;
    const table = outcome.body.data?.table as { waiters: { editor: string }[] } | undefined;
    return table?.waiters.some((waiter) => waiter.editor === editor) ?? false;
  };

  async function wait(index: number, client: LineClient, answered: () => void) {
    const variables = { table: LINE_TABLE, key: randomUUID(), wait: WAIT_SECONDS };
    const answer = await load.send(client.key, index, ACQUIRE, variables);
    answered();
    const token = answer && 'data' in answer ? answer.data.acquireTableLock?.token : undefined;
    if (!token) {
      const code = answer && 'code' in answer ? answer.code : undefined;
      if (code) acknowledged.push({ waiter: client.editor, event: 'refused', code });
      return;
    }
    acknowledged.push({ waiter: client.editor, event: 'granted', token });
    load.acknowledged.push({ action: 'acquire', table: LINE_TABLE, token });
    await load.save(client.key, index, LINE_TABLE, token);
    if (index === passBefore) held();
    if (index >= passBefore) await resumed;
    await load.release(client.key, index, LINE_TABLE, token);
  }

  async function run() {
    const grant = await load.send(holder.key, 0, ACQUIRE, { table: LINE_TABLE, key: randomUUID() });
    const token = grant && 'data' in grant ? grant.data.acquireTableLock?.token : undefined;
    if (!token) throw new Error(`the line's holder got no grant: ${JSON.stringify(grant)}`);
    load.acknowledged.push({ action: 'acquire', table: LINE_TABLE, token });
    const waiting: Promise<void>[] = [];
    for (const [index, client] of waiters.entries()) {
      let isAnswered = false;
      waiting.push(wait(index, client, () => (isAnswered = true)));
      await poll(`${client.editor} in line`, 30_000, async () =>
        isAnswered || (await inLine(client.editor)) ? true : undefined,
      );
      if (!isAnswered) acknowledged.push({ waiter: client.editor, event: 'inLine' });
    }
    await load.release(holder.key, 0, LINE_TABLE, token);
    await Promise.all(waiting);
  }

  return { acknowledged, holding, resume, done: run() };
}
