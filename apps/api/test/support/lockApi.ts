import { graphql } from '../generated';
import type {
  UpdateTableStatusWithLockInput,
  UpdateTableStatusWithLockMutation,
} from '../generated/graphql';
import { execute, type GraphQLResponse, type TestClient } from './testApi';

// The legacy contract's mutation, typed from the API's SDL by codegen.

export type LockInput = UpdateTableStatusWithLockInput;
export type LockResult = NonNullable<
  UpdateTableStatusWithLockMutation['UpdateTableStatusWithLock']
>;

const updateTableStatusWithLockMutation = graphql(`
  mutation UpdateTableStatusWithLock($input: UpdateTableStatusWithLockInput!) {
    UpdateTableStatusWithLock(input: $input) {
      lock_result
      current_status
      fk_current_status {
        table_name
        current_status
      }
    }
  }
`);

/** Calls the legacy mutation and returns the whole response (data and errors). */
export function callLock(
  client: TestClient,
  input: LockInput,
): Promise<GraphQLResponse<UpdateTableStatusWithLockMutation>> {
  return execute(client, updateTableStatusWithLockMutation, { input });
}

/** Calls the legacy mutation and returns its result, failing the test on any GraphQL error. */
export async function lock(client: TestClient, input: LockInput): Promise<LockResult> {
  const response = await callLock(client, input);
  const result = response.data?.UpdateTableStatusWithLock;
  if (response.errors || !result) {
    throw new Error(`UpdateTableStatusWithLock failed: ${JSON.stringify(response.errors)}`);
  }
  return result;
}

/** Starts editing `table` through the legacy mutation, sending `editor` as legacy clients do. */
export const acquireByLegacyMutation = (client: TestClient, table: string) =>
  lock(client, {
    table_name: table,
    current_status: 'normal',
    target_status: 'editing',
    editor: client.name ?? undefined,
  });

/** Finishes editing `table` through the legacy mutation, as its holder. */
export const releaseByLegacyMutation = (client: TestClient, table: string) =>
  lock(client, {
    table_name: table,
    current_status: 'editing',
    target_status: 'normal',
    editor: client.name ?? undefined,
  });
