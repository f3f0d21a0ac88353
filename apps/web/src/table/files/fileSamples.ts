/** The first values of each column of a file, by its header: what a mapping step shows. */
export type FileSamples = Record<string, string[]>;

const SAMPLE_ROWS = 3;
// Enough for the header and a few rows of any file people import by hand.
const READ_BYTES = 64 * 1024;

/**
 * The first rows of a CSV file, read in the browser (the server reads the header only, to
 * refuse it): an XLSX file has none here.
 */
export async function fileSamples(file: File): Promise<FileSamples> {
  if (/\.xlsx$/i.test(file.name)) return {};
  const text = (await file.slice(0, READ_BYTES).text()).replace(/^\uFEFF/, '');
  const records = csvRecords(text);
  // A file longer than what was read ends in a row cut in two.
  if (file.size > READ_BYTES) records.pop();
  const [header, ...rows] = records;
  if (!header) return {};
  return Object.fromEntries(
    header.map((name, index) => [
      name,
      rows
        .slice(0, SAMPLE_ROWS)
        .map((row) => row[index] ?? '')
        .filter((value) => value !== ''),
    ]),
  );
}

/** RFC 4180 records: quoted fields may hold commas, quotes (doubled) and line breaks. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}
