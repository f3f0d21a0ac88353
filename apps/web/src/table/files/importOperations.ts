import { GraphqlRequestError } from '../../api/GraphqlRequestError';
import { graphql } from '../../generated';
import type { ImportOutcome } from '../../generated/graphql';
import { type UploadAnswer, type UploadHandlers, uploadFile } from '../../transfer/uploadFile';

export const importRowsQuery = graphql(`
  query ImportDryRunRows($id: ID!, $outcomes: [ImportOutcome!], $offset: Int!, $limit: Int!) {
    importReport(id: $id) {
      labelColumn
      rows(outcomes: $outcomes, offset: $offset, limit: $limit) {
        total
        rows {
          line
          outcome
          key
          values
          label
          changed
          previous
          errors {
            column
            code
            message
            details {
              kind
              column
              value
              table
              targetColumn
              row
              count
              comparison
              bound
              upperBound
              rule
            }
          }
        }
      }
    }
  }
`);

export const applyImportMutation = graphql(`
  mutation ApplyImportDryRun($id: ID!, $token: String!, $skipRowsWithErrors: Boolean) {
    applyImport(id: $id, token: $token, skipRowsWithErrors: $skipRowsWithErrors) {
      counts {
        create
        update
        error
      }
    }
  }
`);

/**
 * "Apply on…" of a dry run: its rows become a change request that the API applies at
 * `effectiveAt` (or the edition's time), checked then against the versions the dry run read.
 */
export const scheduleImportMutation = graphql(`
  mutation ScheduleImportDryRun(
    $table: String!
    $token: String!
    $importDryRunId: ID!
    $comment: String
    $keepEditing: Boolean
    $effectiveAt: DateTime
    $editionId: ID
  ) {
    submitChangeRequest(
      table: $table
      token: $token
      importDryRunId: $importDryRunId
      comment: $comment
      keepEditing: $keepEditing
      effectiveAt: $effectiveAt
      editionId: $editionId
    ) {
      request {
        id
        state
        effectiveAt
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
 * Uploads a file for a dry run (`POST /import/<table>?dryRun=1`, the file as the body),
 * telling `handlers` how much is sent and when the server's part begins. The server answers
 * refusals as GraphQL does: they reject with a GraphqlRequestError.
 */
export async function uploadDryRun(
  table: string,
  token: string,
  file: File,
  handlers: UploadHandlers,
  columnMapping?: Record<string, string | null>,
  /** Stops the upload, and with it the server's check of the rows. */
  signal?: AbortSignal,
): Promise<DryRun> {
  const xlsx = /\.xlsx$/i.test(file.name) || file.type === XLSX_TYPE;
  const search = new URLSearchParams({ token, fileName: file.name, dryRun: '1' });
  if (columnMapping) search.set('columnMapping', JSON.stringify(columnMapping));
  let answer: UploadAnswer;
  try {
    answer = await uploadFile(
      `/import/${encodeURIComponent(table)}?${search}`,
      file,
      { 'content-type': xlsx ? XLSX_TYPE : 'text/csv', accept: 'application/json' },
      handlers,
      signal,
    );
  } catch (cause) {
    throw new GraphqlRequestError(
      [{ message: cause instanceof Error ? cause.message : String(cause) }],
      'NETWORK_ERROR',
    );
  }
  const body = answer.body as {
    report?: DryRun;
    errors?: ConstructorParameters<typeof GraphqlRequestError>[0];
  } | null;
  if (body?.errors?.length) throw new GraphqlRequestError(body.errors, 'UNKNOWN');
  if (answer.status < 200 || answer.status >= 300 || !body?.report) {
    throw new GraphqlRequestError([{ message: `HTTP ${answer.status}` }], 'NETWORK_ERROR');
  }
  return body.report;
}

/** The erroneous rows as a file of the upload's own kind, its errors in the user's language. */
export const errorsFileUrl = (dryRun: DryRun, language: string) =>
  `/import/dry-runs/${encodeURIComponent(dryRun.id)}/errors.${/\.xlsx$/i.test(dryRun.fileName) ? 'xlsx' : 'csv'}?lang=${encodeURIComponent(language)}`;
