import { DomainError } from '@tablelock/errors';
import type { RowView } from '@tablelock/master-data';
import type { Request } from 'express';
import { csvFile } from './csvFile';
import type { RowFileFormat } from './rowFile';
import { xlsxFile } from './xlsxFile';

const FORMATS: Record<string, RowFileFormat> = { csv: csvFile, xlsx: xlsxFile };
const VIEW_PARAMETERS = ['sort', 'filter'] as const;

export interface ExportRequest {
  table: string;
  format: RowFileFormat;
  view: RowView;
}

/**
 * `/export/<table>.<csv|xlsx>?sort=<json>&filter=<json>`: the sort and filter as JSON, in the
 * shape the `rows` query takes them (checked with the table's columns later). Any other
 * parameter is refused, so that a misspelt filter cannot quietly export every row.
 */
export function parseExportRequest(request: Request): ExportRequest {
  const file = String(request.params.file ?? '');
  const dot = file.lastIndexOf('.');
  const format = FORMATS[file.slice(dot + 1)];
  if (dot <= 0 || !format) {
    throw new DomainError('NOT_FOUND', `Exports are /export/<table>.csv or /export/<table>.xlsx.`);
  }
  const unknown = Object.keys(request.query).filter(
    (name) => !(VIEW_PARAMETERS as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    throw new DomainError(
      'BAD_USER_INPUT',
      `Unknown parameter ${unknown.join(', ')}: an export takes sort and filter.`,
    );
  }
  return {
    table: file.slice(0, dot),
    format,
    view: { sort: jsonParameter(request, 'sort'), filter: jsonParameter(request, 'filter') },
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
