import type { LoadResult } from './runClosedLoop';
import type { ContentionResult } from './scenarios/contention';
import type { DeepPagesResult } from './scenarios/deepPages';
import type { ExportsResult } from './scenarios/exportProducts';
import type { ImportResult } from './scenarios/importProducts';

export interface BenchReport {
  startedAt: string;
  mode: 'quick' | 'full';
  database: string;
  rawSql: LoadResult[];
  graphql: (LoadResult & { ratioToRawSql: number })[];
  reads: LoadResult[];
  contention: ContentionResult;
  deepPages: DeepPagesResult;
  exports: ExportsResult;
  imports: ImportResult;
  targets: { name: string; met: boolean; detail: string }[];
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

/** The report as a plain-text table for the terminal. */
export function formatReport(report: BenchReport): string {
  const lines = [
    `tablelock bench (${report.mode}) on ${report.database}, ${report.startedAt}`,
    '',
    'scenario                    clients    ops/s   p50 ms   p95 ms   p99 ms  errors  refused  vs raw',
  ];
  const row = (name: string, result: LoadResult, ratio?: number) =>
    `${name.padEnd(26)}${String(result.clients).padStart(9)}${fixed(result.opsPerSecond).padStart(9)}` +
    `${fixed(result.latencyMs.p50, 2).padStart(9)}${fixed(result.latencyMs.p95, 2).padStart(9)}` +
    `${fixed(result.latencyMs.p99, 2).padStart(9)}${String(result.errors).padStart(8)}` +
    `${String(result.refused).padStart(9)}${ratio === undefined ? '' : `${fixed(ratio * 100, 0)}%`.padStart(8)}`;
  for (const result of report.rawSql) lines.push(row('raw SQL acquire+release', result));
  for (const result of report.graphql) {
    lines.push(row('GraphQL acquire+release', result, result.ratioToRawSql));
  }
  for (const result of report.reads) lines.push(row('GraphQL tables query', result));
  const c = report.contention;
  lines.push(
    '',
    `contention: ${c.clients} clients race for one table, ${c.rounds} rounds: ` +
      `winners per round ${[...new Set(c.winnersPerRound)].join('/')}, ` +
      `all answered in p50 ${fixed(c.roundMs.p50)} ms / max ${fixed(c.roundMs.max)} ms, errors ${c.errors}`,
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
    `import of ${report.imports.rows.toLocaleString('en')} products (${fixed(report.imports.megabytes)} MB CSV, every name changed): ` +
      `dry run ${fixed(report.imports.dryRunSeconds, 2)} s, apply ${fixed(report.imports.applySeconds, 2)} s, ` +
      `API peak RSS ${fixed(report.imports.apiPeakRssBeforeMb, 0)} → ${fixed(report.imports.apiPeakRssAfterMb, 0)} MB`,
    '',
    'targets:',
    ...report.targets.map((t) => `  ${t.met ? 'met    ' : 'MISSED '} ${t.name}: ${t.detail}`),
  );
  const firstErrors = [
    ...report.rawSql,
    ...report.graphql,
    ...report.reads,
    c,
    report.deepPages,
    report.exports,
    report.imports,
  ]
    .map((result) => result.firstError)
    .filter(Boolean);
  if (firstErrors.length > 0) lines.push('', `first error: ${firstErrors[0]}`);
  return lines.join('\n');
}
