import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { badFile, tooLarge } from '../importFileErrors';
import type { ImportLimits } from '../importLimits';
import { closeFile } from './spooledFile';

/** An XLSX file's parts by name, read from the zip's central directory (nothing inflated yet). */
export interface XlsxZip {
  entries: Map<string, Entry>;
  /** The inflated bytes of a part; yauzl checks they are as many as the directory says. */
  open(entry: Entry): Promise<Readable>;
  close(): void;
}

/**
 * Opens the zip of an XLSX file, from memory or from an open file descriptor, which it then
 * owns: `close` closes it (a zip is read from its end, where the directory is). Every part must say it inflates to at most `maxInflatedBytes`, so a
 * zip bomb is refused before any of it is inflated.
 */
export async function openXlsxZip(source: Buffer | number, limits: ImportLimits): Promise<XlsxZip> {
  const options = { lazyEntries: true, autoClose: false, validateEntrySizes: true };
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    const done = (error: Error | null, opened?: ZipFile) =>
      error || !opened ? reject(error) : resolve(opened);
    if (typeof source === 'number') yauzl.fromFd(source, options, done);
    else yauzl.fromBuffer(source, options, done);
  }).catch(async (error: Error) => {
    if (typeof source === 'number') await closeFile(source);
    throw badFile(`The XLSX file cannot be read: ${error.message}`);
  });
  try {
    const entries = await readDirectory(zip, limits);
    return {
      entries,
      open: (entry) =>
        new Promise((resolve, reject) =>
          zip.openReadStream(entry, (error, stream) =>
            error || !stream
              ? reject(badFile(`The XLSX file cannot be read: ${error?.message}`))
              : resolve(stream),
          ),
        ),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function readDirectory(zip: ZipFile, limits: ImportLimits): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      if (entries.size === limits.maxZipEntries) {
        reject(badFile(`The XLSX file has more than ${limits.maxZipEntries} parts.`));
        return;
      }
      if (entry.uncompressedSize > limits.maxInflatedBytes) {
        reject(
          tooLarge(
            `${entry.fileName} inflates to ${(entry.uncompressedSize / 1024 / 1024).toFixed(0)} MB, over ${limits.maxInflatedBytes / 1024 / 1024} MB`,
            limits,
          ),
        );
        return;
      }
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (error: Error) =>
      reject(badFile(`The XLSX file cannot be read: ${error.message}`)),
    );
    zip.readEntry();
  });
}
