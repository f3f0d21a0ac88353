import { tooLarge } from '../importFileErrors';
import type { ImportLimits } from '../importLimits';
import type { XlsxZip } from './xlsxZip';
import { readWholeXmlPart } from './xmlPart';

/**
 * The workbook's shared strings, which sheet cells name by index; a rich text is its runs'
 * text, without phonetic guides. Their number and length are capped: twenty million empty
 * strings fit in under a megabyte of zip.
 */
export async function readSharedStrings(
  zip: XlsxZip,
  path: string | undefined,
  limits: ImportLimits,
): Promise<string[]> {
  const strings: string[] = [];
  if (path === undefined || !zip.entries.has(path)) return strings;
  let chars = 0;
  let current: string | undefined;
  let inText = false;
  let phonetic = 0;
  await readWholeXmlPart(zip, path, limits, {
    open(name) {
      if (name === 'si') {
        if (strings.length === limits.maxSharedStrings) {
          throw tooLarge(
            `more than ${limits.maxSharedStrings.toLocaleString('en')} shared strings`,
            limits,
          );
        }
        current = '';
      } else if (name === 'rPh') phonetic++;
      else if (name === 't' && phonetic === 0) inText = current !== undefined;
    },
    close(name) {
      if (name === 'si' && current !== undefined) {
        strings.push(current);
        current = undefined;
      } else if (name === 'rPh') phonetic--;
      else if (name === 't') inText = false;
    },
    text(text) {
      if (!inText || current === undefined) return;
      chars += text.length;
      if (chars > limits.maxSharedStringChars) {
        throw tooLarge(
          `shared strings of more than ${limits.maxSharedStringChars.toLocaleString('en')} characters`,
          limits,
        );
      }
      current += text;
    },
  });
  return strings;
}
