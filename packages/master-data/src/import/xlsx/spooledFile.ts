import { close, open, write } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';

const openFile = promisify(open);
const writeFile = promisify(write);
export const closeFile = promisify(close);

/**
 * Writes an upload to a file that has no name: made in a private folder, then unlinked with
 * its folder before a byte is written, so that the disk space goes back when the descriptor
 * is closed or the process ends, however it ends. A zip is read from its end, so an XLSX
 * upload must be kept until it has all arrived; here it costs no memory. Gives the open file
 * descriptor (a number, as yauzl takes and closes it).
 */
export async function spoolToUnnamedFile(source: Readable): Promise<number> {
  const folder = await mkdtemp(join(tmpdir(), 'tablelock-import-'));
  let fd: number;
  try {
    fd = await openFile(join(folder, 'upload.xlsx'), 'w+', 0o600);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      let written = 0;
      while (written < chunk.length) {
        written += (await writeFile(fd, chunk, written, chunk.length - written)).bytesWritten;
      }
    }
    return fd;
  } catch (error) {
    await closeFile(fd);
    throw error;
  }
}
