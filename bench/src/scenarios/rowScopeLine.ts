import { performance } from 'node:perf_hooks';
import { setTimeout as pause } from 'node:timers/promises';
import { benchPair } from '../benchDatabase';
import { createGraphQLClient } from '../graphqlClient';

export interface RowScopeLineResult {
  editors: number;
  /** Scopes granted to the editors in all. */
  grants: number;
  /** Refusals of a scope that named another scope in its way (target 0: all are disjoint). */
  falseConflicts: number;
  /** Refusals because of the whole-table waiter, first in line or holding: expected, not false. */
  wholeTableRefusals: number;
  /** The most scopes one editor was granted while the whole-table waiter waited (target ≤ 1). */
  grantsWhileWaiting: number;
  /** How long the whole-table waiter waited, in ms, from its asking. */
  waiterWaitMs: number;
}

const ACQUIRE = `mutation Acquire($table: String!, $rows: [String!], $wait: Int) {
  acquireTableLock(table: $table, rows: $rows, leaseSeconds: 60, wait: $wait) { token } }`;
const RELEASE = `mutation Release($table: String!, $token: String!) {
  releaseTableLock(table: $table, token: $token) { name } }`;
const WAITERS = `query Waiters($table: String!) { table(name: $table) { waiters { editor } } }`;
type Acquired = { acquireTableLock: { token: string } };
type Waiters = { table: { waiters: { editor: string }[] } | null };

/** How long an editor holds its scope each round: a short edit. */
const HOLD_MS = 20;

/**
 * Whether a refusal (the API's errors, as the bench's client throws them) named a row scope in
 * the way: a blocker with `rows`. The whole-table waiter, in line or holding, has none.
 */
function inWayOfScope(error: unknown): boolean {
  const answer = /^Error: HTTP \d+: (.*)$/s.exec(String(error))?.[1];
  if (!answer) throw error;
  const [first] = JSON.parse(answer) as { extensions?: { blockers?: { rows?: unknown }[] } }[];
  const blockers = first?.extensions?.blockers;
  if (!blockers) throw error;
  return blockers.some((blocker) => blocker.rows != null);
}

/**
 * `editors` editors each take a scope of their own value of one table, over and over, while a
 * whole-table waiter joins the line partway through: every refusal of a scope is classified
 * (only the waiter, first in line, may be in the way of disjoint scopes), and the waiter must be
 * served within one round of the holders (no editor granted twice while it waits).
 */
export async function measureRowScopeLine(
  apiUrl: string,
  apiKeys: string[],
  options: { editors: number; seconds: number },
): Promise<RowScopeLineResult> {
  const api = createGraphQLClient(apiUrl, options.editors + 1);
  const table = benchPair(0).child;
  const deadline = performance.now() + options.seconds * 1000;
  const waiting = {
    asked: Number.POSITIVE_INFINITY,
    since: Number.POSITIVE_INFINITY,
    until: Number.POSITIVE_INFINITY,
  };
  const grantsAt: number[][] = Array.from({ length: options.editors }, () => []);
  let falseConflicts = 0;
  let wholeTableRefusals = 0;
  const editor = async (index: number) => {
    const apiKey = apiKeys[index] ?? '';
    while (performance.now() < deadline) {
      try {
        const { acquireTableLock } = await api.request<Acquired>(apiKey, ACQUIRE, {
          table,
          rows: [String(index)],
        });
        grantsAt[index]?.push(performance.now());
        await pause(HOLD_MS);
        await api.request(apiKey, RELEASE, { table, token: acquireTableLock.token });
      } catch (error) {
        if (inWayOfScope(error)) falseConflicts += 1;
        else wholeTableRefusals += 1;
        await pause(HOLD_MS);
      }
    }
  };
  const waiter = async () => {
    await pause((options.seconds * 1000) / 3);
    const apiKey = apiKeys[options.editors] ?? '';
    waiting.asked = performance.now();
    const answer = { received: false };
    const served = api.request<Acquired>(apiKey, ACQUIRE, { table, wait: 30 });
    void served.finally(() => {
      answer.received = true;
    });
    // From when it is seen in line: an editor's request sent after that must queue behind it,
    // so each editor is granted at most the one it had under way. One served before a look
    // found it in line has no such window.
    while (waiting.since === Number.POSITIVE_INFINITY && !answer.received) {
      const { table: seen } = await api.request<Waiters>(apiKey, WAITERS, { table });
      if (seen?.waiters.length) waiting.since = performance.now();
      else await pause(5);
    }
    const { acquireTableLock } = await served;
    waiting.until = performance.now();
    await pause(HOLD_MS);
    await api.request(apiKey, RELEASE, { table, token: acquireTableLock.token });
  };
  try {
    await Promise.all([
      waiter(),
      ...Array.from({ length: options.editors }, (_, index) => editor(index)),
    ]);
  } finally {
    await api.close();
  }
  return {
    editors: options.editors,
    grants: grantsAt.reduce((sum, times) => sum + times.length, 0),
    falseConflicts,
    wholeTableRefusals,
    grantsWhileWaiting: Math.max(
      ...grantsAt.map(
        (times) => times.filter((at) => at > waiting.since && at < waiting.until).length,
      ),
    ),
    waiterWaitMs: waiting.until - waiting.asked,
  };
}
