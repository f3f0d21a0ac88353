import { GraphqlRequestError } from '../api/GraphqlRequestError';
import { graphql } from '../generated';
import type { ImportOutcome } from '../generated/graphql';

export const importRowsQuery = graphql(`
  query ImportDryRunRows($id: ID!, $outcomes: [ImportOutcome!], $offset: Int!, $limit: Int!) {
    importReport(id: $id) {
      rows(outcomes: $outcomes, offset: $offset, limit: $limit) {
        total
        rows {
          line
          outcome
          key
          values
          changed
          previous
          errors {
            column
            code
            message
          }
        }
      }
    }
  }
`);

export const applyImportMutation = graphql(`
  mutation ApplyImportDryRun($id: ID!, $token: String!) {
    applyImport(id: $id, token: $token) {
      counts {
        create
        update
      }
    }
  }
`);

/** What the upload answers: the kept dry run, its rows read page by page with importRowsQuery. */
export interface DryRun {
  id: string;
  fileName: string;
  columns: string[];
  counts: Record<ImportOutcome, number> & { total: number };
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The browser's own limit, so a file the server would refuse is not sent at all. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/**
 * Uploads a file for a dry run (`POST /import/<table>?dryRun=1`, the file as the body). The
 * server answers refusals as GraphQL does: they reject with a GraphqlRequestError.
 */
export async function uploadDryRun(table: string, token: string, file: File): Promise<DryRun> {
  const xlsx = /\.xlsx$/i.test(file.name) || file.type === XLSX_TYPE;
  const search = new URLSearchParams({ token, fileName: file.name, dryRun: '1' });
  let response: Response;
  try {
    response = await fetch(`/import/${encodeURIComponent(table)}?${search}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': xlsx ? XLSX_TYPE : 'text/csv', accept: 'application/json' },
      body: file,
    });
  } catch (cause) {
    throw new GraphqlRequestError(
      [{ message: cause instanceof Error ? cause.message : String(cause) }],
      'NETWORK_ERROR',
    );
  }
  const body = (await response.json().catch(() => null)) as {
    report?: DryRun;
    errors?: ConstructorParameters<typeof GraphqlRequestError>[0];
  } | null;
  if (body?.errors?.length) throw new GraphqlRequestError(body.errors, 'UNKNOWN');
  if (!response.ok || !body?.report) {
    throw new GraphqlRequestError([{ message: `HTTP ${response.status}` }], 'NETWORK_ERROR');
  }
  return body.report;
}

export const errorsFileUrl = (dryRun: DryRun) =>
  `/import/dry-runs/${encodeURIComponent(dryRun.id)}/errors.csv`;
