import { expect } from '@playwright/test';
import { signedInRequest } from './demoUsers';
import { graphql } from './graphql';

/** Turns `table`'s four eyes on or off (its policy's changesNeedApproval), as an admin. */
export async function setApproval(
  baseURL: string | undefined,
  table: string,
  on: boolean,
): Promise<void> {
  const admin = await signedInRequest(baseURL, 'admin');
  const answer = await graphql(
    admin,
    'mutation($table: String!, $on: Boolean!) { setTablePolicy(table: $table, policy: { changesNeedApproval: $on }) { changesNeedApproval } }',
    { table, on },
  );
  await admin.dispose();
  expect(answer.errors).toBeUndefined();
}
