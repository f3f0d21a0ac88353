import type { ImportLimits } from '../importLimits';
import type { XlsxZip } from './xlsxZip';
import { readWholeXmlPart } from './xmlPart';

// The built-in number formats that show a date or a time (ECMA-376 18.8.30, with the East
// Asian ones).
const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51,
  52, 53, 54, 55, 56, 57, 58,
]);

/** A custom format shows a date when, outside quotes and brackets, it has a date or time part. */
const isDateFormatCode = (code: string) =>
  /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));

/**
 * Which cell styles (by index, the `s` of a cell) show their number as a date: a sheet stores
 * a date as a number of days, and only its style tells it from a number.
 */
export async function readDateStyles(
  zip: XlsxZip,
  path: string | undefined,
  limits: ImportLimits,
): Promise<Set<number>> {
  const dateStyles = new Set<number>();
  if (path === undefined || !zip.entries.has(path)) return dateStyles;
  const customDates = new Set<number>();
  let inCellXfs = false;
  let index = 0;
  await readWholeXmlPart(zip, path, limits, {
    open(name, attributes) {
      if (name === 'numFmt' && isDateFormatCode(attributes.formatCode ?? '')) {
        customDates.add(Number(attributes.numFmtId));
      } else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const format = Number(attributes.numFmtId ?? 0);
        if (BUILT_IN_DATE_FORMATS.has(format) || customDates.has(format)) dateStyles.add(index);
        index++;
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return dateStyles;
}
