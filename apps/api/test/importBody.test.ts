import { PassThrough } from 'node:stream';
import { IMPORT_LIMITS } from '@tablelock/master-data';
import type { Request } from 'express';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IMPORT_BODY_IDLE_MS, importBody } from '../src/http/import/readImportBody';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** An upload as the endpoint sees it: bytes that come when the test sends them. */
const upload = () => new PassThrough() as unknown as Request & PassThrough;

const failureOf = (body: NodeJS.ReadableStream) =>
  new Promise<Error>((resolve) => body.on('error', resolve));

describe('an import body', () => {
  it('is cut off once it sends nothing for the idle limit, however long it has been arriving', async () => {
    const request = upload();
    const body = importBody(request, IMPORT_LIMITS);
    body.resume();
    const failed = failureOf(body);
    for (let i = 0; i < 5; i++) {
      request.write('id\n');
      await vi.advanceTimersByTimeAsync(IMPORT_BODY_IDLE_MS - 1);
    }
    expect(body.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await failed).message).toBe('The file stopped arriving.');
  });

  it('is refused with IMPORT_TOO_LARGE as soon as it passes the byte limit', async () => {
    const request = upload();
    const body = importBody(request, { ...IMPORT_LIMITS, maxBytes: 10 });
    body.resume();
    const failed = failureOf(body);
    request.write('id\n123456789\n');
    expect(await failed).toMatchObject({ code: 'IMPORT_TOO_LARGE' });
  });
});
