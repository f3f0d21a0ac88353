import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';

export interface ExportResult {
  format: 'csv' | 'xlsx';
  seconds: number;
  megabytes: number;
  /** The API process's peak resident memory so far (VmHWM), after this export. */
  apiPeakRssMb: number;
}

export interface ExportsResult {
  /** The API's peak resident memory before the first export. */
  apiPeakRssBeforeMb: number;
  exports: ExportResult[];
  errors: number;
  firstError?: string;
}

const SORT_BY_NAME = encodeURIComponent(JSON.stringify([{ column: 'name', direction: 'asc' }]));

/** Downloads all 100,000 products sorted by name, as CSV then XLSX, each `times` times. */
export async function measureExports(
  baseUrl: string,
  apiKey: string,
  apiPid: number,
  times: number,
): Promise<ExportsResult> {
  const result: ExportsResult = {
    apiPeakRssBeforeMb: await peakRssMb(apiPid),
    exports: [],
    errors: 0,
  };
  for (const format of ['csv', 'xlsx'] as const) {
    for (let i = 0; i < times; i++) {
      const began = performance.now();
      try {
        const response = await request(
          `${baseUrl}/export/products.${format}?sort=${SORT_BY_NAME}`,
          {
            headers: { authorization: `Bearer ${apiKey}` },
          },
        );
        let bytes = 0;
        let lineBreaks = 0;
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          if (format === 'csv') for (const byte of chunk) if (byte === 0x0a) lineBreaks++;
        }
        if (response.statusCode !== 200)
          throw new Error(`export ${format}: HTTP ${response.statusCode}`);
        // The header and 100,000 rows, none of whose values has a line break.
        if (format === 'csv' && lineBreaks !== 100_001) {
          throw new Error(`export csv: ${lineBreaks - 1} rows`);
        }
        result.exports.push({
          format,
          seconds: (performance.now() - began) / 1000,
          megabytes: bytes / 1e6,
          apiPeakRssMb: await peakRssMb(apiPid),
        });
      } catch (error) {
        result.errors++;
        result.firstError ??= (error as Error).message;
      }
    }
  }
  return result;
}

/** The process's peak resident memory so far (VmHWM), in MB. */
export async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return kilobytes / 1024;
}
