import { formatHistoryPages } from './historyPagesReport';
import { formatRowScopes } from './rowScopeReport';
import type { BigImportResult } from './scenarios/bigImports';
import type { ContentionResult } from './scenarios/contention';
import type { DeepPagesResult } from './scenarios/deepPages';
import type { EditorPageResult } from './scenarios/editorPage';
import type { ExportsResult } from './scenarios/exportProducts';
import type { FanOutResult } from './scenarios/fanOut';
import type { HistoryPagesResult } from './scenarios/historyPages';
import type { ImportResult } from './scenarios/importProducts';
import type { ManyTablesResult } from './scenarios/manyTables';
import type { RoundTripsResult } from './scenarios/roundTrips';
import type { RowScopeLineResult } from './scenarios/rowScopeLine';
import type { RowScopeWriteCostResult } from './scenarios/rowScopeWriteCost';
import type { WebhookDeliveryResult } from './scenarios/webhookDelivery';
import type { WriteGuardCostResult } from './scenarios/writeGuardCost';
import type { Ratio, ThroughputResult, WindowPlan } from './sideBySide';
import type { Spread } from './spread';
import { formatWebhookDelivery } from './webhookReport';
import { formatWriteGuardCost } from './writeGuardReport';

/** Acquire + release of one table and its FK table, at one client level, every subject side by side. */
export interface LockCycleLevel {
  clients: number;
  /** The lock path's own statements over `pg`: the floor. */
  rawSql: ThroughputResult;
  /** tablelock: `UpdateTableStatusWithLock` over HTTP. */
  graphql: ThroughputResult;
  /**
   * The ceiling: the same mutation on the bare server (bareServer.ts: Express, Apollo Server and
   * the floor's statements, nothing else). Absent from runs before it.
   */
  bare?: ThroughputResult;
  /** The bare server's figures over the floor's, window by window. */
  bareVs?: { rawSql: Ratio };
  /** Peer: pg_try_advisory_lock / pg_advisory_unlock. */
  advisoryLock: ThroughputResult;
  /** Peer: Redis SET NX PX + compare-and-delete; null when skipped (see `peers`). */
  redis: ThroughputResult | null;
  /** Durable peer: etcd's lock (lease + transaction, etcd3's Lock); null when skipped. */
  etcd?: ThroughputResult | null;
  /** tablelock's figures over each other subject's, window by window of the same round. */
  graphqlVs: {
    rawSql: Ratio;
    bare?: Ratio;
    advisoryLock: Ratio;
    redis: Ratio | null;
    etcd?: Ratio | null;
  };
}

/** The client libraries' lock cycle (`with table_lock`, `withTableLock`) at one client level. */
export interface ClientLockCycleLevel {
  clients: number;
  typescript: ThroughputResult;
  python: ThroughputResult;
  /** The Python client's figures over the TypeScript client's, window by window. */
  pythonVs: { typescript: Ratio };
}

/**
 * Acquire + release at one client level: each client a scope of its own on one shared table,
 * beside each client a whole table of its own.
 */
export interface RowScopeLevel {
  clients: number;
  wholeTable: ThroughputResult;
  rowScope: ThroughputResult;
  /** The scopes' figures over the whole tables', window by window. */
  rowScopeVs: { wholeTable: Ratio };
}

export interface Target {
  name: string;
  /** null: not judged (quick mode judges correctness only). */
  met: boolean | null;
  detail: string;
}

/**
 * What `bench/results/latest.json` holds. Its shape changes only with `format` (README,
 * "Benchmark", describes it).
 */
export interface BenchReport {
  format: 2;
  startedAt: string;
  mode: 'quick' | 'full';
  /** "embedded" or the external server's host. */
  database: string;
  machine: { cpus: number; loadAverage1m: number };
  windows: WindowPlan;
  /** Why a peer was not measured, or null when it was. */
  peers: { redis: { skipped: string | null }; etcd?: { skipped: string | null } };
  lockCycle: LockCycleLevel[];
  /** Absent from runs before the Python client. */
  clientLockCycle?: ClientLockCycleLevel[];
  /** Absent from runs before row scopes. */
  rowScopes?: RowScopeLevel[];
  /** Absent from runs before it. */
  rowScopeLine?: RowScopeLineResult;
  rowScopeWriteCost?: RowScopeWriteCostResult;
  /** Null when the API measured has no statement counter (an older version). */
  roundTrips: RoundTripsResult | null;
  reads: ThroughputResult[];
  contention: ContentionResult;
  /** The same race on the bare server. Absent from runs before it. */
  bareContention?: ContentionResult;
  fanOut: FanOutResult;
  deepPages: DeepPagesResult;
  exports: ExportsResult;
  editorPage?: EditorPageResult;
  manyTables: ManyTablesResult;
  imports: ImportResult;
  bigImports: BigImportResult;
  /** Absent from runs before the write guard. */
  writeGuard?: WriteGuardCostResult;
  /** Absent from runs before keyset history pages. */
  historyPages?: HistoryPagesResult;
  /** The lock cycle without and with two webhook endpoints, and delivery latency. */
  webhooks?: WebhookDeliveryResult;
  targets: Target[];
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
export const percent = (value: number) => `${fixed(value * 100, 0)}%`;

/** A spread as "median (min–max)". */
export const formatSpread = (spread: Spread, format: (value: number) => string = fixed) =>
  spread.min === spread.max
    ? format(spread.median)
    : `${format(spread.median)} (${format(spread.min)}–${format(spread.max)})`;

export const THROUGHPUT_HEADER =
  'scenario                 clients  ops/s                  p50 ms                 p99 ms                  errors refused';

/** One subject at one client level, under THROUGHPUT_HEADER. */
export const throughputRow = (name: string, result: ThroughputResult) =>
  `${name.padEnd(24)}${String(result.clients).padStart(8)}  ${formatSpread(result.opsPerSecond).padEnd(23)}` +
  `${formatSpread(result.latencyMs.p50, (v) => fixed(v, 2)).padEnd(23)}` +
  `${formatSpread(result.latencyMs.p99, (v) => fixed(v, 2)).padEnd(24)}` +
  `${String(result.errors).padStart(6)}${String(result.refused).padStart(8)}`;

/** The Python client's throughput over the TypeScript client's, level by level. */
export function formatPythonOverTypescript(levels: ClientLockCycleLevel[]): string[] {
  return [
    'the Python client over the TypeScript client (throughput ratio):',
    ...levels.map(
      (level) =>
        `  ${String(level.clients).padStart(2)} clients: ${formatSpread(level.pythonVs.typescript.throughput, percent)}`,
    ),
  ];
}

/** The contention round's lines: on the API, and on the bare server when it ran there too. */
export function formatContention(c: ContentionResult, b: ContentionResult | undefined): string[] {
  return [
    `contention: ${c.clients} clients race for one table, ${c.rounds} rounds: ` +
      `winners per round ${[...new Set(c.winnersPerRound)].join('/')}, ` +
      `all answered in p50 ${fixed(c.roundMs.p50)} ms / max ${fixed(c.roundMs.max)} ms, errors ${c.errors}`,
    ...(b
      ? [
          `  on the bare server: winners per round ${[...new Set(b.winnersPerRound)].join('/')}, ` +
            `p50 ${fixed(b.roundMs.p50)} ms / max ${fixed(b.roundMs.max)} ms, errors ${b.errors}`,
        ]
      : []),
  ];
}

/** The report as plain text for the terminal. */
export function formatReport(report: BenchReport): string {
  const { windows } = report;
  const lines = [
    `tablelock bench (${report.mode}) on ${report.database}, ${report.startedAt}, ` +
      `${report.machine.cpus} CPUs, load average ${fixed(report.machine.loadAverage1m, 2)} at the start`,
    `each figure: the median of ${windows.windows} window(s) of ${fixed(windows.windowMs / 1000, 0)} s ` +
      '(min–max in brackets), subjects run in turns',
    '',
    THROUGHPUT_HEADER,
  ];
  const row = throughputRow;
  for (const level of report.lockCycle) {
    lines.push(row('raw SQL floor', level.rawSql));
    lines.push(row('tablelock GraphQL', level.graphql));
    if (level.bare) lines.push(row('bare Express + Apollo', level.bare));
    lines.push(row('peer: advisory lock', level.advisoryLock));
    if (level.redis) lines.push(row('peer: Redis SET NX', level.redis));
    if (level.etcd) lines.push(row('peer: etcd lock', level.etcd));
  }
  for (const level of report.clientLockCycle ?? []) {
    lines.push(throughputRow('client: TypeScript', level.typescript));
    lines.push(throughputRow('client: Python', level.python));
  }
  for (const level of report.rowScopes ?? []) {
    lines.push(row('whole table (own)', level.wholeTable));
    lines.push(row('row scope (one table)', level.rowScope));
  }
  for (const result of report.reads) lines.push(row('GraphQL tables query', result));
  if (report.peers.redis.skipped) lines.push(`peer: Redis skipped: ${report.peers.redis.skipped}`);
  if (report.peers.etcd?.skipped) lines.push(`peer: etcd skipped: ${report.peers.etcd.skipped}`);
  lines.push('', 'tablelock GraphQL over each subject (throughput ratio; p50 latency ratio):');
  for (const level of report.lockCycle) {
    const vs = (name: string, ratio: Ratio | null) =>
      ratio
        ? `${name} ${formatSpread(ratio.throughput, percent)}; ${formatSpread(ratio.latencyP50, (v) => `${fixed(v, 1)}×`)}`
        : `${name} skipped`;
    lines.push(
      `  ${String(level.clients).padStart(2)} clients: ${vs('raw SQL', level.graphqlVs.rawSql)} | ` +
        `${vs('advisory lock', level.graphqlVs.advisoryLock)} | ${vs('Redis', level.graphqlVs.redis)} | ` +
        `${vs('etcd', level.graphqlVs.etcd ?? null)}`,
    );
  }
  if (report.clientLockCycle) lines.push('', ...formatPythonOverTypescript(report.clientLockCycle));
  if (report.lockCycle.some((level) => level.bareVs)) {
    lines.push(
      '',
      'the ceiling: the bare server (Express + Apollo + the floor) over the floor; tablelock over it:',
    );
    for (const level of report.lockCycle) {
      if (!level.bareVs || !level.graphqlVs.bare) continue;
      lines.push(
        `  ${String(level.clients).padStart(2)} clients: bare / raw SQL ${formatSpread(level.bareVs.rawSql.throughput, percent)} | ` +
          `tablelock / bare ${formatSpread(level.graphqlVs.bare.throughput, percent)}`,
      );
    }
  }
  const f = report.fanOut;
  lines.push(
    '',
    report.roundTrips
      ? `round trips to Postgres (the API's statements): ${fixed(report.roundTrips.acquireRelease, 2)} per acquire + release ` +
          `(the floor's: 4), ${fixed(report.roundTrips.deniedAttempt, 2)} per denied attempt (its denial record included)`
      : 'round trips to Postgres: not measured (the API has no statement counter)',
    '',
    ...formatContention(report.contention, report.bareContention),
    `fan-out: ${f.subscribers} subscriptions over ${f.apiProcesses ?? 1} API process(es) (${f.sessionSubscribers} on sessions, the rest on API keys, ` +
      `${f.selectionSets} selection sets), ${f.changes} changes: p50 ${fixed(f.latencyMs.p50)} ms, ` +
      `p99 ${fixed(f.latencyMs.p99)} ms, max ${fixed(f.latencyMs.max)} ms, missed ${f.missed}, ` +
      `database transactions per change ${f.databaseTransactionsPerChange === null ? 'not measured (quick)' : fixed(f.databaseTransactionsPerChange)}`,
    '',
    `rows of 100,000 products sorted by name, 100 a page (sort index ready after ${fixed(report.deepPages.sortIndexReadyMs, 0)} ms):`,
    ...report.deepPages.pages.map(
      ({ position, latencyMs }) =>
        `  ${position.padEnd(26)} p50 ${fixed(latencyMs.p50)} ms, max ${fixed(latencyMs.max)} ms`,
    ),
    '',
    `export of 100,000 products sorted by name (API peak RSS before: ${fixed(report.exports.apiPeakRssBeforeMb, 0)} MB):`,
    ...report.exports.exports.map(
      (e) =>
        `  ${e.format.padEnd(5)} ${fixed(e.seconds, 2)} s, ${fixed(e.megabytes)} MB, API peak RSS ${fixed(e.apiPeakRssMb, 0)} MB`,
    ),
    '',
    ...(report.editorPage ? [...formatEditorPage(report.editorPage), ''] : []),
    `${report.manyTables.tables.toLocaleString('en-US')} more master tables (two FKs each; created in ${fixed(report.manyTables.createSeconds)} s):`,
    `  registry sync              ${fixed(report.manyTables.registrySyncMs, 0)} ms`,
    `  tables query (every table) p50 ${fixed(report.manyTables.tablesQuery.latencyMs.p50)} ms, ${fixed(report.manyTables.tablesQuery.kilobytes, 0)} kB`,
    `  tablePage query (100 rows) p50 ${fixed(report.manyTables.tablePage.latencyMs.p50)} ms, ${fixed(report.manyTables.tablePage.kilobytes, 0)} kB`,
    `  Tables page first screen   p50 ${fixed(report.manyTables.firstScreenMs.p50, 0)} ms, max ${fixed(report.manyTables.firstScreenMs.max, 0)} ms`,
    '',
    `import of ${report.imports.rows.toLocaleString('en')} products (${fixed(report.imports.megabytes)} MB CSV, every name changed): ` +
      `dry run ${fixed(report.imports.dryRunSeconds, 2)} s, apply ${fixed(report.imports.applySeconds, 2)} s, ` +
      `API peak RSS ${fixed(report.imports.apiPeakRssBeforeMb, 0)} → ${fixed(report.imports.apiPeakRssAfterMb, 0)} MB`,
    '',
    `large imports (API RSS ${fixed(report.bigImports.apiIdleRssMb, 0)} MB before them):`,
    ...report.bigImports.steps.map(
      (step) =>
        `  ${step.name.padEnd(32)} ${fixed(step.seconds, 2)} s, ${fixed(step.megabytes)} MB, API RSS +${fixed(step.apiRssAboveIdleMb, 0)} MB, /healthz max ${fixed(step.healthzMaxMs, 0)} ms${step.error ? `, error: ${step.error}` : ''}`,
    ),
    '',
    ...(report.writeGuard ? [...formatWriteGuardCost(report.writeGuard), ''] : []),
    ...(report.rowScopeLine || report.rowScopeWriteCost
      ? [...formatRowScopes(report.rowScopeLine, report.rowScopeWriteCost), '']
      : []),
    ...(report.webhooks ? [...formatWebhookDelivery(report.webhooks), ''] : []),
    ...(report.historyPages ? [...formatHistoryPages(report.historyPages), ''] : []),
    'targets:',
    ...report.targets.map(
      (t) =>
        `  ${t.met === null ? 'not judged' : t.met ? 'met       ' : 'MISSED    '} ${t.name}: ${t.detail}`,
    ),
  );
  const firstErrors = [
    ...report.lockCycle.flatMap((level) => [
      level.rawSql,
      level.graphql,
      level.bare ?? null,
      level.advisoryLock,
      level.redis,
      level.etcd ?? null,
    ]),
    ...(report.clientLockCycle ?? []).flatMap((level) => [level.typescript, level.python]),
    ...(report.rowScopes ?? []).flatMap((level) => [level.wholeTable, level.rowScope]),
    ...report.reads,
    report.contention,
    report.bareContention ?? null,
    f,
    report.deepPages,
    ...(report.historyPages ? [report.historyPages] : []),
    report.exports,
    report.manyTables,
    report.imports,
  ]
    .map((result) => result?.firstError)
    .filter(Boolean);
  if (firstErrors.length > 0) lines.push('', `first error: ${firstErrors[0]}`);
  return lines.join('\n');
}

export function formatEditorPage(page: EditorPageResult): string[] {
  return [
    'the table page in Chromium (100,000 products, drafts on):',
    `  first rows shown           p50 ${fixed(page.firstRowsMs.p50, 0)} ms, max ${fixed(page.firstRowsMs.max, 0)} ms`,
    `  save of ${page.saveRows.toLocaleString('en-US')} changed rows    p50 ${fixed(page.saveMs.p50, 0)} ms, max ${fixed(page.saveMs.max, 0)} ms (Save pressed → "Saved" shown)`,
    `  draft kept after one edit  p50 ${fixed(page.draftWriteMs.p50, 0)} ms, max ${fixed(page.draftWriteMs.max, 0)} ms (${page.saveRows.toLocaleString('en-US')} changes pending; off the main thread)`,
    ...(page.firstError ? [`  error: ${page.firstError}`] : []),
  ];
}
