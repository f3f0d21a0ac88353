import { type BenchReport, formatSpread, type LockCycleLevel } from './report';
import type { ThroughputResult } from './sideBySide';

const whole = (value: number) => value.toFixed(0);
// Shares of a fast peer are small: one decimal below 10%.
const percent = (value: number) => `${(value * 100).toFixed(value < 0.1 ? 1 : 0)}%`;
const ops = (result: ThroughputResult | null) =>
  result ? formatSpread(result.opsPerSecond, whole) : 'skipped';
const p50 = (result: ThroughputResult | null) =>
  result ? formatSpread(result.latencyMs.p50, (v) => v.toFixed(2)) : 'skipped';
const medianP50 = (result: ThroughputResult | null) =>
  result ? result.latencyMs.p50.median.toFixed(2) : 'skipped';

/** The README's figures (markdown) from a report: generated, never edited by hand. */
export function readmeTable(report: BenchReport): string {
  const levels = report.lockCycle;
  const row = (name: string, cell: (level: LockCycleLevel, i: number) => string) => [
    name,
    ...levels.map(cell),
  ];
  const c = report.contention;
  const f = report.fanOut;
  return [
    `${report.mode === 'full' ? 'Full' : 'Quick'} run of ${report.startedAt.slice(0, 10)} on ${report.machine.cpus} CPUs ` +
      `(load average ${report.machine.loadAverage1m.toFixed(1)} at the start), database ` +
      `${report.database}; each cell the median of ${report.windows.windows} window(s) of ` +
      `${report.windows.windowMs / 1000} s, min–max in brackets.`,
    '',
    ...markdownTable([
      ['scenario', ...levels.map((l) => `${l.clients} client${l.clients === 1 ? '' : 's'}`)],
      row('raw SQL floor, ops/s', (l) => ops(l.rawSql)),
      row('tablelock GraphQL, ops/s', (l) => ops(l.graphql)),
      row('tablelock GraphQL / raw SQL floor', (l) =>
        formatSpread(l.graphqlVs.rawSql.throughput, percent),
      ),
      row('bare Express + Apollo (ceiling), ops/s', (l) => ops(l.bare ?? null)),
      row('bare server / raw SQL floor', (l) =>
        l.bareVs ? formatSpread(l.bareVs.rawSql.throughput, percent) : 'not measured',
      ),
      row('tablelock GraphQL / bare server', (l) =>
        l.graphqlVs.bare ? formatSpread(l.graphqlVs.bare.throughput, percent) : 'not measured',
      ),
      row('peer: advisory lock, ops/s', (l) => ops(l.advisoryLock)),
      row('tablelock GraphQL / advisory lock', (l) =>
        formatSpread(l.graphqlVs.advisoryLock.throughput, percent),
      ),
      row('peer: Redis SET NX, ops/s', (l) => ops(l.redis)),
      row('tablelock GraphQL / Redis', (l) =>
        l.graphqlVs.redis ? formatSpread(l.graphqlVs.redis.throughput, percent) : 'skipped',
      ),
      row('peer: etcd lock (durable), ops/s', (l) => ops(l.etcd ?? null)),
      row('tablelock GraphQL / etcd', (l) =>
        l.graphqlVs.etcd ? formatSpread(l.graphqlVs.etcd.throughput, percent) : 'skipped',
      ),
      row('tablelock GraphQL p50 / etcd p50', (l) =>
        l.graphqlVs.etcd
          ? formatSpread(l.graphqlVs.etcd.latencyP50, (v) => `${v.toFixed(2)}×`)
          : 'skipped',
      ),
      row('tablelock GraphQL p50, ms', (l) => p50(l.graphql)),
      row('raw SQL / advisory lock / Redis / etcd p50, ms', (l) =>
        [
          medianP50(l.rawSql),
          medianP50(l.advisoryLock),
          medianP50(l.redis),
          medianP50(l.etcd ?? null),
        ].join(' / '),
      ),
      row('`tables` query, requests/s', (_, i) => ops(report.reads[i] ?? null)),
    ]),
    '',
    report.roundTrips
      ? `Round trips to Postgres: ${report.roundTrips.acquireRelease.toFixed(2)} statements per acquire + release ` +
        `(the floor's: 4), ${report.roundTrips.deniedAttempt.toFixed(2)} per denied attempt, its denial record included.`
      : 'Round trips to Postgres: not measured.',
    '',
    `Contention: ${c.clients} clients race for one table, ${c.rounds} rounds; winners per round: ` +
      `${[...new Set(c.winnersPerRound)].join('/')}; every client answered after ${c.roundMs.p50.toFixed(0)} ms ` +
      `(p50 of rounds), ${c.roundMs.max.toFixed(0)} ms at worst; ${c.errors} errors.` +
      (report.bareContention
        ? ` On the bare server: ${report.bareContention.roundMs.p50.toFixed(0)} ms (p50), ` +
          `${report.bareContention.roundMs.max.toFixed(0)} ms at worst.`
        : ''),
    '',
    `Fan-out: one lock change reaches ${f.subscribers} subscriptions over ${f.apiProcesses ?? 1} API process(es) (${f.sessionSubscribers} on sessions, ` +
      `the rest on API keys) in ${f.latencyMs.p50.toFixed(0)} ms (p50), ${f.latencyMs.p99.toFixed(0)} ms ` +
      `(p99); ${f.missed} missed; database transactions per change: ` +
      `${f.databaseTransactionsPerChange === null ? 'not measured' : f.databaseTransactionsPerChange.toFixed(1)}.`,
    ...(report.peers.redis.skipped
      ? ['', `Redis peer skipped: ${report.peers.redis.skipped}.`]
      : []),
    ...(report.peers.etcd?.skipped ? ['', `etcd peer skipped: ${report.peers.etcd.skipped}.`] : []),
  ].join('\n');
}

/** Rows (the first is the header) as a markdown table with padded columns, as Biome formats it. */
function markdownTable(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, column) =>
    Math.max(3, ...rows.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${widths.map((width, column) => (cells[column] ?? '').padEnd(width)).join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)];
}
