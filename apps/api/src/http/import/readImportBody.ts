import { Transform } from 'node:stream';
import { DomainError } from '@tablelock/errors';
import { type ImportLimits, importTooLarge } from '@tablelock/master-data';
import type { Request } from 'express';

/** How long an upload may send nothing before it is cut off. */
export const IMPORT_BODY_IDLE_MS = 10_000;

/** The body is over `limits.maxBytes` (declared or counted as it arrives). */
export const bodyTooLarge = (limits: ImportLimits) =>
  importTooLarge(`over ${limits.maxBytes / 1024 / 1024} MB`, limits);

/**
 * The file sent as the body, as a stream, read only once the caller may import: at most
 * `maxBytes`, counted as it arrives, and cut off when it stalls (a slow sender holds an
 * import's place).
 */
export function importBody(request: Request, limits: ImportLimits): Transform {
  let size = 0;
  const stalled = setTimeout(
    () => body.destroy(new DomainError('BAD_USER_INPUT', 'The file stopped arriving.')),
    IMPORT_BODY_IDLE_MS,
  );
  const body = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      stalled.refresh();
      size += chunk.length;
      done(size > limits.maxBytes ? bodyTooLarge(limits) : null, chunk);
    },
    flush(done) {
      clearTimeout(stalled);
      done();
    },
  });
  body.on('close', () => clearTimeout(stalled));
  request.on('error', (error) => body.destroy(error));
  request.on('aborted', () =>
    body.destroy(new DomainError('BAD_USER_INPUT', 'The upload was cut off.')),
  );
  return request.pipe(body);
}
