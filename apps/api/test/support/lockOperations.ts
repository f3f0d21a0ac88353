import { graphql } from '../generated';
import type { LockEventFilter, LockGrantFieldsFragment } from '../generated/graphql';
import { execute, type GraphQLResponse, type TestClient } from './testApi';

// The lock lifecycle operations the tests send, typed from the API's SDL by codegen.

graphql(`
  fragment LockGrantFields on LockGrant {
    table
    editor
    token
    leaseExpiresAt
    lastActiveAt
    idleLimitSeconds
    lockedTables
  }
`);

export const acquireTableLockMutation = graphql(`
  mutation AcquireTableLock($table: String!, $lease: Int, $key: String, $wait: Int) {
    acquireTableLock(table: $table, leaseSeconds: $lease, idempotencyKey: $key, wait: $wait) {
      ...LockGrantFields
    }
  }
`);

export const acquireTableLocksMutation = graphql(`
  mutation AcquireTableLocks($tables: [String!]!, $lease: Int, $key: String, $wait: Int) {
    acquireTableLocks(tables: $tables, leaseSeconds: $lease, idempotencyKey: $key, wait: $wait) {
      ...LockGrantFields
    }
  }
`);

export const tableLineQuery = graphql(`
  query TableLine($name: String!) {
    table(name: $name) {
      status
      editor
      waiters {
        editor
        tables
        since
        reservedUntil
      }
      editBlock {
        kind
        blockers {
          table
          editor
        }
      }
    }
  }
`);

export const renewTableLockMutation = graphql(`
  mutation RenewTableLock($table: String!, $token: String!, $lease: Int) {
    renewTableLock(table: $table, token: $token, leaseSeconds: $lease) {
      ...LockGrantFields
    }
  }
`);

export const releaseTableLockMutation = graphql(`
  mutation ReleaseTableLock($table: String!, $token: String!) {
    releaseTableLock(table: $table, token: $token) {
      status
    }
  }
`);

export const takeOverTableLockMutation = graphql(`
  mutation TakeOverTableLock($table: String!, $reason: String!, $lease: Int) {
    takeOverTableLock(table: $table, reason: $reason, leaseSeconds: $lease) {
      ...LockGrantFields
    }
  }
`);

export const forceReleaseMutation = graphql(`
  mutation ForceRelease($table: String!, $reason: String!) {
    forceRelease(table: $table, reason: $reason) {
      name
      status
      editor
    }
  }
`);

export const saveRowsMutation = graphql(`
  mutation SaveRows($table: String!, $token: String!, $changes: RowChanges!, $key: String) {
    saveRows(table: $table, token: $token, changes: $changes, idempotencyKey: $key) {
      saved
      inserted
      updated
      deleted
    }
  }
`);

export const lockEventsQuery = graphql(`
  query LockEvents($filter: LockEventFilter, $offset: Int, $limit: Int) {
    lockEvents(filter: $filter, offset: $offset, limit: $limit) {
      total
      events {
        id
        at
        action
        table
        actor
        editor
        token
        reason
        rowsChanged
      }
    }
  }
`);

export const logoutMutation = graphql(`
  mutation Logout {
    logout
  }
`);

export const meQuery = graphql(`
  query Me {
    me {
      name
    }
  }
`);

export type LockGrant = LockGrantFieldsFragment;
export type LockEventPage = Awaited<ReturnType<typeof lockEvents>>;
export type LockEvent = LockEventPage['events'][number];

/** The grant in `response`, failing the test with the response if there is none. */
export function granted<K extends string>(
  response: GraphQLResponse<Record<K, LockGrant>>,
  field: K,
  what: string,
): LockGrant {
  const grant = response.data?.[field];
  if (response.errors || !grant) throw new Error(`${what} failed: ${JSON.stringify(response)}`);
  return grant;
}

/** Starts editing `table` as `client` through the acquireTableLock mutation; must succeed. */
export async function acquireTableLockAs(
  client: TestClient,
  table: string,
  options: { lease?: number | null; key?: string } = {},
): Promise<LockGrant> {
  const response = await execute(client, acquireTableLockMutation, { table, ...options });
  return granted(response, 'acquireTableLock', `${client.name} acquiring ${table}`);
}

/** Finishes acquisition `token` through the releaseTableLock mutation; must succeed. */
export async function releaseTableLockAs(client: TestClient, table: string, token: string) {
  const response = await execute(client, releaseTableLockMutation, { table, token });
  if (response.errors) throw new Error(`release of ${table}: ${JSON.stringify(response.errors)}`);
}

/** Ends whoever's lock on `table` through the forceRelease mutation; must succeed. */
export async function forceReleaseAs(client: TestClient, table: string, reason: string) {
  const response = await execute(client, forceReleaseMutation, { table, reason });
  if (response.errors) {
    throw new Error(`force-release of ${table}: ${JSON.stringify(response.errors)}`);
  }
}

/** A page of the audit history as `client` (an admin) reads it; must succeed. */
export async function lockEvents(
  client: TestClient,
  filter: LockEventFilter,
  offset = 0,
  limit = 50,
) {
  const response = await execute(client, lockEventsQuery, { filter, offset, limit });
  if (response.errors || !response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.lockEvents;
}

/** The code and message of a response's first error: what a refusal says. */
export const refusal = (response: GraphQLResponse<unknown>) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message ?? '',
});
