import type { TableColumn } from '../../tableColumns';
import { badFile } from '../importFileErrors';

/** What a sheet knows to turn a cell into text. */
export interface CellContext {
  sharedStrings: string[];
  dateStyles: Set<number>;
  date1904: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Day 25,569 of the 1900 date system is 1970-01-01; the 1904 system starts 1,462 days later. */
const UNIX_EPOCH_DAY = 25_569;
const DATE_1904_OFFSET = 1462;

/** A date as Postgres reads it for the column: a day for a date column, an instant otherwise. */
const dateText = (date: Date, column: TableColumn | undefined) =>
  Number.isNaN(date.getTime())
    ? null
    : column?.kind === 'date'
      ? date.toISOString().slice(0, 10)
      : date.toISOString();

/**
 * A cell's stored value (`raw`, the text of its `<v>` or inline string) as text, as Postgres
 * reads it for the column: numbers as JavaScript prints them, booleans as true/false, dates
 * (numbers in a date style) as ISO dates, errors as Excel shows them.
 */
export function xlsxCellText(
  type: string,
  raw: string,
  style: number,
  column: TableColumn | undefined,
  context: CellContext,
): string | null {
  switch (type) {
    case 's': {
      const text = context.sharedStrings[Number(raw)];
      if (text === undefined)
        throw badFile(`A cell names shared string ${raw}, which the file does not have.`);
      return text;
    }
    case 'str':
    case 'inlineStr':
    case 'e':
      return raw;
    case 'b':
      return raw === '1' || raw === 'true' ? 'true' : 'false';
    case 'd':
      return dateText(new Date(raw), column) ?? raw;
    default: {
      if (raw === '') return null;
      const number = Number.parseFloat(raw);
      if (Number.isNaN(number)) return raw;
      if (!context.dateStyles.has(style)) return String(number);
      const days = number - UNIX_EPOCH_DAY + (context.date1904 ? DATE_1904_OFFSET : 0);
      return dateText(new Date(Math.round(days * DAY_MS)), column) ?? raw;
    }
  }
}
