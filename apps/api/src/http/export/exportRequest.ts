import { DomainError } from '@tablelock/errors';
import type { RowView } from '@tablelock/master-data';
import type { Request } from 'express';
import { csvFile } from './csvFile';
import { checkedTimeZone } from './exportFileName';
import type { RowFileFormat } from './rowFile';
import { xlsxFile } from './xlsxFile';

const FORMATS: Record<string, RowFileFormat> = { csv: csvFile, xlsx: xlsxFile };
const VIEW_PARAMETERS = ['sort', 'filter'] as const;
const PARAMETERS: readonly string[] = [...VIEW_PARAMETERS, 'tz'];

export interface ExportRequest {
  table: string;
  format: RowFileFormat;
  view: RowView;
  /** The caller's time zone, for the day in the file's name (UTC when not given). */
  timeZone: string;
}

/**
 * `/export/<table>.<csv|xlsx>?sort=<json>&filter=<json>&tz=<zone>`: the sort and filter as JSON,
 * in the shape the `rows` query takes them (checked with the table's columns later), and the
 * caller's time zone for the file's name. Any other parameter is refused, so that a misspelt
 * filter cannot quietly export every row.
 */
export function parseExportRequest(request: Request): ExportRequest {
  const file = String(request.params.file ?? '');
  const dot = file.lastIndexOf('.');
  const format = FORMATS[file.slice(dot + 1)];
  if (dot <= 0 || !format) {
    throw new DomainError('NOT_FOUND', `Exports are /export/<table>.csv or /export/<table>.xlsx.`);
  }
  const unknown = Object.keys(request.query).filter((name) => !PARAMETERS.includes(name));
  if (unknown.length > 0) {
    throw new DomainError(
      'BAD_USER_INPUT',
      `Unknown parameter ${unknown.join(', ')}: an export takes sort, filter and tz.`,
    );
  }
  const tz = request.query.tz;
  if (tz !== undefined && typeof tz !== 'string') {
    throw new DomainError('BAD_USER_INPUT', 'Give tz once, as a time zone name.');
  }
  return {
    table: file.slice(0, dot),
    format,
    view: { sort: jsonParameter(request, 'sort'), filter: jsonParameter(request, 'filter') },
    timeZone: tz === undefined ? 'UTC' : checkedTimeZone(tz),
  };
}

function jsonParameter(request: Request, name: (typeof VIEW_PARAMETERS)[number]) {
  const value = request.query[name];
  if (value === undefined) return [];
  if (typeof value !== 'string') {
    throw new DomainError('BAD_USER_INPUT', `Give ${name} once, as a JSON array.`);
  }
  try {
    return JSON.parse(value);
  } catch {
    throw new DomainError('BAD_USER_INPUT', `${name} is not JSON: give a JSON array.`);
  }
}
