import { DomainError } from '@tablelock/errors';
import { type ImportLimits, MasterDataError } from '@tablelock/master-data';
import type { Request } from 'express';

/** How long an upload may send nothing before it is cut off. */
export const IMPORT_BODY_IDLE_MS = 10_000;

export const importTooLarge = (limits: ImportLimits) =>
  new MasterDataError(
    'IMPORT_TOO_LARGE',
    `The file is over ${limits.maxBytes / 1024 / 1024} MB; split it.`,
    { maxBytes: limits.maxBytes, maxRows: limits.maxRows },
  );

/**
 * The file sent as the body, read only once the caller may import: at most `maxBytes`,
 * counted as it arrives, and cut off when it stalls (a slow sender holds an import's place).
 */
export async function readImportBody(request: Request, limits: ImportLimits): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const stalled = setTimeout(
    () => request.destroy(new DomainError('BAD_USER_INPUT', 'The file stopped arriving.')),
    IMPORT_BODY_IDLE_MS,
  );
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      stalled.refresh();
      size += chunk.length;
      if (size > limits.maxBytes) throw importTooLarge(limits);
      chunks.push(chunk);
    }
  } finally {
    clearTimeout(stalled);
  }
  return Buffer.concat(chunks, size);
}
