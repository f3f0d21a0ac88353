import { posix } from 'node:path';
import { badFile } from '../importFileErrors';
import type { ImportLimits } from '../importLimits';
import type { XlsxZip } from './xlsxZip';
import { readWholeXmlPart } from './xmlPart';

/** Where the parts an import reads are, from the workbook and its relationships. */
export interface XlsxWorkbook {
  /** The first sheet, as the workbook orders its sheets (not as the zip does). */
  sheetPath: string;
  sharedStringsPath: string | undefined;
  stylesPath: string | undefined;
  /** Dates count from 1904 (old Mac workbooks), not 1900. */
  date1904: boolean;
}

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';

export async function readXlsxWorkbook(zip: XlsxZip, limits: ImportLimits): Promise<XlsxWorkbook> {
  let firstSheetId: string | undefined;
  let date1904 = false;
  await readWholeXmlPart(zip, WORKBOOK, limits, {
    open(name, attributes) {
      if (name === 'workbookPr') {
        date1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
      }
      if (name === 'sheet' && firstSheetId === undefined) {
        const id = Object.entries(attributes).find(([key]) => key.endsWith(':id'));
        firstSheetId = id?.[1];
      }
    },
  });
  const targets = new Map<string, string>();
  const byType = new Map<string, string>();
  await readWholeXmlPart(zip, WORKBOOK_RELS, limits, {
    open(name, attributes) {
      if (name !== 'Relationship' || !attributes.Id || !attributes.Target) return;
      const target = attributes.Target.startsWith('/')
        ? attributes.Target.slice(1)
        : posix.join('xl', attributes.Target);
      targets.set(attributes.Id, target);
      byType.set(attributes.Type?.split('/').pop() ?? '', target);
    },
  });
  const sheetPath = firstSheetId === undefined ? undefined : targets.get(firstSheetId);
  if (!sheetPath || !zip.entries.has(sheetPath)) {
    throw badFile('The XLSX file has no sheet.');
  }
  return {
    sheetPath,
    sharedStringsPath: byType.get('sharedStrings'),
    stylesPath: byType.get('styles'),
    date1904,
  };
}
