import { DomainError } from '@tablelock/errors';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { badFile } from '../importFileErrors';
import type { ImportLimits } from '../importLimits';
import type { XlsxZip } from './xlsxZip';

/** What a reader of a part does with its elements: names come without a namespace prefix. */
export interface XmlHandler {
  open?(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Reads one part of an XLSX file as XML events, as it inflates: nothing but the element being
 * read is held. Elements nested deeper than `maxXmlDepth` end the reading (a sheet is six
 * deep; two million nested elements would hold two million open tags). Yields after each
 * inflated chunk, so that the caller can take what the handler gathered from it.
 */
export async function* readXmlPart(
  zip: XlsxZip,
  name: string,
  limits: ImportLimits,
  handler: XmlHandler,
): AsyncGenerator<void> {
  const entry = zip.entries.get(name);
  if (!entry) throw badFile(`The XLSX file has no ${name}.`);
  const parser = new SaxesParser();
  let depth = 0;
  parser.on('opentag', (tag: SaxesTagPlain) => {
    depth++;
    if (depth > limits.maxXmlDepth) {
      throw badFile(`${name} nests elements more than ${limits.maxXmlDepth} deep.`);
    }
    handler.open?.(localName(tag.name), tag.attributes);
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    depth--;
    handler.close?.(localName(tag.name));
  });
  if (handler.text) {
    parser.on('text', handler.text);
    parser.on('cdata', handler.text);
  }
  const stream = await zip.open(entry);
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of stream) {
      parser.write(decoder.decode(chunk, { stream: true }));
      yield;
    }
    parser.write(decoder.decode()).close();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw badFile(`The XLSX file cannot be read: ${name}: ${(error as Error).message}`);
  } finally {
    stream.destroy();
  }
}

/** Reads a whole part (one of the small ones: the workbook, its styles and strings). */
export async function readWholeXmlPart(
  zip: XlsxZip,
  name: string,
  limits: ImportLimits,
  handler: XmlHandler,
): Promise<void> {
  for await (const _ of readXmlPart(zip, name, limits, handler));
}
