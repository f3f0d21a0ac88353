import {
  guardFormula,
  importErrorText,
  readImportErrors,
  SENTENCE_LANGUAGES,
  sentenceLanguage,
} from '@tablelock/master-data';
import type { Request, RequestHandler } from 'express';
import { authorizeFileRequest } from '../../auth/authorizeFileRequest';
import type { ApiServices } from '../../context';
import { csvFile, csvRecords, UTF8_BOM } from '../export/csvFile';
import { refuseFileRequest } from '../refuseFileRequest';
import { requestIdOf } from '../requestId';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function errorsWorkbook(records: (string | null)[][]): Promise<Buffer> {
  // Loaded with the first errors file, not at every start of the API (see xlsxFile.ts).
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('errors').addRows(records);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * The language the errors are written in: `?lang=` (the web app sends the one its user chose),
 * else the browser's Accept-Language, else English.
 */
function languageOf(request: Request) {
  const asked = typeof request.query.lang === 'string' ? request.query.lang : null;
  return sentenceLanguage(asked ?? (request.acceptsLanguages(...SENTENCE_LANGUAGES) || null));
}

/**
 * `GET /import/dry-runs/<id>/errors.csv` (or `errors.xlsx`, for an XLSX upload): the rows of a dry run that have errors, as the file
 * had them, with an `error` column saying what is wrong with each in the grid's words, in the
 * user's language: correct them and import the file again. For the dry run's editor only.
 */
export function importErrorsEndpoint(services: ApiServices): RequestHandler {
  return async (request, response) => {
    const logger = services.logger.child({ requestId: requestIdOf(response) });
    try {
      const caller = await authorizeFileRequest(services, request, response, 'editor');
      const { report, columns, rows } = await readImportErrors(
        services.prisma,
        services.masterSchema,
        String(request.params.id ?? ''),
        caller.name,
      );
      const language = languageOf(request);
      const header = [...report.columns, 'error'];
      const base = report.fileName.replace(/\.(csv|xlsx)$/i, '');
      if (request.path.endsWith('.xlsx')) {
        // Cells of an XLSX are values, never formulas: no guard needed.
        const records = rows.map((row) => [
          ...columns.map((column) => row.values[column.name] ?? null),
          importErrorText(row.errors, language),
        ]);
        response.attachment(`${base}-errors.xlsx`);
        response.setHeader('Content-Type', XLSX_TYPE);
        response.send(await errorsWorkbook([header, ...records]));
        return;
      }
      const records = rows.map((row) => [
        ...columns.map((column) => guardFormula(column, row.values[column.name] ?? null)),
        importErrorText(row.errors, language),
      ]);
      response.attachment(`${base}-errors.csv`);
      response.setHeader('Content-Type', csvFile.contentType);
      response.send(UTF8_BOM + csvRecords([header, ...records]));
    } catch (error) {
      refuseFileRequest(services, response, error, logger);
    }
  };
}
