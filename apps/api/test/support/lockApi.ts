import type { TableStatus } from '@tablelock/db';
import type { GraphQLResponse, TestClient } from './testApi';

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
  client: TestClient,
  input: LockInput,
): Promise<GraphQLResponse<{ UpdateTableStatusWithLock: LockResult | null }>> {
  return client.graphql(MUTATION, { input });
}

/** Calls the seed mutation and returns its result, failing the test on any GraphQL error. */
export async function lock(client: TestClient, input: LockInput): Promise<LockResult> {
  const response = await callLock(client, input);
  const result = response.data?.UpdateTableStatusWithLock;
  if (response.errors || !result) {
    throw new Error(`UpdateTableStatusWithLock failed: ${JSON.stringify(response.errors)}`);
  }
  return result;
}

/** Starts editing `table` as the client, sending `editor` as seed clients do. */
export const acquire = (client: TestClient, table: string) =>
  lock(client, {
    table_name: table,
    current_status: 'normal',
    target_status: 'editing',
    editor: client.name ?? undefined,
  });

export const release = (client: TestClient, table: string) =>
  lock(client, {
    table_name: table,
    current_status: 'editing',
    target_status: 'normal',
    editor: client.name ?? undefined,
  });
