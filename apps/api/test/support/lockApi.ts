import type { TableStatus } from '@tablelock/db';
import type { GraphQLResponse, TestApi } from './testApi';

export interface LockInput {
  table_name: string;
  current_status: TableStatus;
  target_status: TableStatus;
  fk_table_name?: string[];
  fk_current_status?: TableStatus;
  fk_target_status?: TableStatus;
  editor?: string;
}

export interface LockResult {
  lock_result: boolean;
  current_status: TableStatus | null;
  fk_current_status: { table_name: string; current_status: TableStatus }[] | null;
}

const MUTATION = `
  mutation Lock($input: UpdateTableStatusWithLockInput!) {
    UpdateTableStatusWithLock(input: $input) {
      lock_result
      current_status
      fk_current_status { table_name current_status }
    }
  }`;

/** Calls the seed mutation and returns the whole response (data and errors). */
export async function callLock(
  api: TestApi,
  input: LockInput,
): Promise<GraphQLResponse<{ UpdateTableStatusWithLock: LockResult | null }>> {
  return api.graphql(MUTATION, { input });
}

/** Calls the seed mutation and returns its result, failing the test on any GraphQL error. */
export async function lock(api: TestApi, input: LockInput): Promise<LockResult> {
  const response = await callLock(api, input);
  const result = response.data?.UpdateTableStatusWithLock;
  if (response.errors || !result) {
    throw new Error(`UpdateTableStatusWithLock failed: ${JSON.stringify(response.errors)}`);
  }
  return result;
}

export const acquire = (api: TestApi, table: string, editor: string) =>
  lock(api, { table_name: table, current_status: 'normal', target_status: 'editing', editor });

export const release = (api: TestApi, table: string, editor: string) =>
  lock(api, { table_name: table, current_status: 'editing', target_status: 'normal', editor });
