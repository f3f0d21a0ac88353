import { type APIRequestContext, expect } from '@playwright/test';
import { graphql } from './graphql';

/** Turns `table`'s four eyes on or off (its policy's changesNeedApproval), as `admin`. */
export async function setApproval(
  admin: APIRequestContext,
  table: string,
  on: boolean,
): Promise<void> {
  const answer = await graphql(
    admin,
    'mutation($table: String!, $on: Boolean!) { setTablePolicy(table: $table, policy: { changesNeedApproval: $on }) { changesNeedApproval } }',
    { table, on },
  );
  expect(answer.errors).toBeUndefined();
}
