import { guardFormula, importErrorText, readImportErrors } from '@tablelock/master-data';
import type { RequestHandler } from 'express';
import { authorizeFileRequest } from '../../auth/authorizeFileRequest';
import type { ApiServices } from '../../context';
import { csvFile, csvRecords, UTF8_BOM } from '../export/csvFile';
import { refuseFileRequest } from '../refuseFileRequest';
import { requestIdOf } from '../requestId';

/**
 * `GET /import/dry-runs/<id>/errors.csv`: the rows of a dry run that have errors, as the file
 * had them, with an `error` column saying what is wrong with each: correct them and import
 * the file again. For the dry run's editor only.
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
      const header = [...report.columns, 'error'];
      const records = rows.map((row) => [
        ...columns.map((column) => guardFormula(column, row.values[column.name] ?? null)),
        importErrorText(row.errors),
      ]);
      const base = report.fileName.replace(/\.(csv|xlsx)$/i, '');
      response.attachment(`${base}-errors.csv`);
      response.setHeader('Content-Type', csvFile.contentType);
      response.send(UTF8_BOM + csvRecords([header, ...records]));
    } catch (error) {
      refuseFileRequest(services, response, error, logger);
    }
  };
}
