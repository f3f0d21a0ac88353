import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { graphql } from '../graphqlClient';
import { peakRssMb } from './exportProducts';

export interface ImportResult {
  rows: number;
  megabytes: number;
  dryRunSeconds: number;
  applySeconds: number;
  /** The API's peak resident memory before the import and after it (VmHWM). */
  apiPeakRssBeforeMb: number;
  apiPeakRssAfterMb: number;
  errors: number;
  firstError?: string;
}

/**
 * Exports all 100,000 products as CSV, changes the name of the first `rowCount` rows, and
 * imports those rows back as an editor: a dry run (`POST /import/products?dryRun=1`), then its
 * apply (`applyImport`), every update in one transaction.
 */
export async function measureImport(
  baseUrl: string,
  apiKey: string,
  apiPid: number,
  rowCount: number,
  /** Runs the dry run (its request and answer), e.g. counting what it costs meanwhile. */
  aroundDryRun: (dryRun: () => Promise<void>) => Promise<void> = (dryRun) => dryRun(),
): Promise<ImportResult> {
  const result: ImportResult = {
    rows: 0,
    megabytes: 0,
    dryRunSeconds: Number.NaN,
    applySeconds: Number.NaN,
    apiPeakRssBeforeMb: await peakRssMb(apiPid),
    apiPeakRssAfterMb: Number.NaN,
    errors: 0,
  };
  let token: string | undefined;
  try {
    const exported = await request(`${baseUrl}/export/products.csv`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const [header, ...exportedLines] = (await exported.body.text()).trimEnd().split('\r\n');
    const lines = exportedLines.slice(0, rowCount);
    const file = Buffer.from(
      [
        header,
        ...lines.map((line) => line.replace(/^(\d+),([^,]*),([^,]*)/, '$1,$2,$3 (imported)')),
      ].join('\r\n'),
    );
    result.rows = lines.length;
    result.megabytes = file.length / 1e6;
    const acquired = await graphql(
      baseUrl,
      apiKey,
      'mutation { acquireTableLock(table: "products", leaseSeconds: 600) { token } }',
      {},
    );
    const held = acquired.acquireTableLock?.token as string;
    token = held;

    let reportId = '';
    await aroundDryRun(async () => {
      const began = performance.now();
      const search = new URLSearchParams({ token: held, fileName: 'products.csv', dryRun: '1' });
      const dryRun = await request(`${baseUrl}/import/products?${search}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'text/csv' },
        body: file,
      });
      const answer = (await dryRun.body.json()) as {
        report?: { id: string; counts: { update: number } };
        errors?: unknown[];
      };
      if (!answer.report || answer.report.counts.update !== lines.length) {
        throw new Error(
          `import dry run: ${JSON.stringify(answer.errors ?? answer.report?.counts)}`,
        );
      }
      result.dryRunSeconds = (performance.now() - began) / 1000;
      reportId = answer.report.id;
    });

    const began = performance.now();
    await graphql(
      baseUrl,
      apiKey,
      'mutation($id: ID!, $token: String!) { applyImport(id: $id, token: $token) { applied } }',
      { id: reportId, token: held },
    );
    result.applySeconds = (performance.now() - began) / 1000;
  } catch (error) {
    result.errors++;
    result.firstError = (error as Error).message;
  } finally {
    if (token) {
      await graphql(
        baseUrl,
        apiKey,
        'mutation($token: String!) { releaseTableLock(table: "products", token: $token) { name } }',
        { token },
      ).catch(() => undefined);
    }
  }
  result.apiPeakRssAfterMb = await peakRssMb(apiPid);
  return result;
}
