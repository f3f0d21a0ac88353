import {
  type ApplyImportRequest,
  applyImport,
  dryRunImport,
  type ImportReport,
  type ImportRequest,
} from '@tablelock/master-data';
import type { ApiServices } from '../context';

type ImportServices = Pick<ApiServices, 'prisma' | 'metrics'>;

/**
 * An import, as both entrances make it (the HTTP upload and GraphQL `importRows`): the dry run,
 * kept; then, unless only a dry run was asked for, the write of what it showed.
 */
export async function importRows(
  services: ImportServices,
  request: ImportRequest & { dryRun: boolean },
): Promise<ImportReport> {
  const { dryRun, ...file } = request;
  const report = await dryRunImport(services.prisma, file);
  if (dryRun) return report;
  return applyImportDryRun(services, {
    schema: request.schema,
    id: report.id,
    holder: request.holder,
    token: request.token,
  });
}

/** Writes a kept dry run (see applyImport), and counts the save. */
export async function applyImportDryRun(
  services: ImportServices,
  request: ApplyImportRequest,
): Promise<ImportReport> {
  const report = await applyImport(services.prisma, request);
  services.metrics.recordSave(report.counts.create + report.counts.update);
  return report;
}
