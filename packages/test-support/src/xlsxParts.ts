import { Readable } from 'node:stream';
import yazl from 'yazl';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;

export const SHEET_START =
  '<?xml version="1.0" encoding="UTF-8"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_END = '</sheetData></worksheet>';

/** One part of a handmade XLSX: its text, given whole or in pieces (for large parts). */
export type XlsxPart = string | Iterable<string>;

/**
 * An XLSX file built by hand from its sheet's XML (and shared strings, and any other parts),
 * deflated: for files no spreadsheet program would write, such as the bombs an import must
 * refuse. `sheet` is the `sheetData` rows, or a whole worksheet when it starts with `<?xml`.
 */
export async function handmadeXlsx(
  sheet: XlsxPart,
  {
    sharedStrings,
    parts = {},
  }: { sharedStrings?: XlsxPart; parts?: Record<string, XlsxPart> } = {},
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const add = (name: string, part: XlsxPart) => {
    const pieces = typeof part === 'string' ? [part] : part;
    zip.addReadStream(Readable.from(pieces, { objectMode: false }), name);
  };
  add('[Content_Types].xml', CONTENT_TYPES);
  add('_rels/.rels', ROOT_RELS);
  add('xl/workbook.xml', WORKBOOK);
  add('xl/_rels/workbook.xml.rels', WORKBOOK_RELS);
  add(
    'xl/worksheets/sheet1.xml',
    typeof sheet === 'string' && sheet.startsWith('<?xml')
      ? sheet
      : (function* () {
          yield SHEET_START;
          yield* typeof sheet === 'string' ? [sheet] : sheet;
          yield SHEET_END;
        })(),
  );
  add(
    'xl/sharedStrings.xml',
    sharedStrings ??
      '<?xml version="1.0" encoding="UTF-8"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"></sst>',
  );
  for (const [name, part] of Object.entries(parts)) add(name, part);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
