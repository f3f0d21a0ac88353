import { graphql } from '../generated';

// What the status and force-release commands send, typed from the API's SDL by codegen.

export const tablesStatusQuery = graphql(`
  query TablesStatus($withWaiters: Boolean!) {
    tables {
      name
      status
      editor
      lockedBy
      acquiredAt
      leaseExpiresAt
      waiters @include(if: $withWaiters) {
        editor
        since
      }
    }
  }
`);

export const forceReleaseMutation = graphql(`
  mutation ForceRelease($table: String!, $reason: String!, $idempotencyKey: String) {
    forceRelease(table: $table, reason: $reason, idempotencyKey: $idempotencyKey) {
      name
      status
    }
  }
`);
