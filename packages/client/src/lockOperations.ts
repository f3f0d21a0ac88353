import { graphql } from './generated';

// What withTableLock sends, typed from the API's SDL by codegen.

graphql(`
  fragment HeldTable on LockGrant {
    table
    token
  }
`);

export const acquireTableLockMutation = graphql(`
  mutation AcquireTableLock(
    $table: String!
    $leaseSeconds: Int
    $wait: Int
    $idempotencyKey: String
    $rows: [String!]
  ) {
    acquireTableLock(
      table: $table
      leaseSeconds: $leaseSeconds
      wait: $wait
      idempotencyKey: $idempotencyKey
      rows: $rows
    ) {
      ...HeldTable
    }
  }
`);

export const acquireTableLocksMutation = graphql(`
  mutation AcquireTableLocks(
    $tables: [String!]!
    $leaseSeconds: Int
    $wait: Int
    $idempotencyKey: String
  ) {
    acquireTableLocks(
      tables: $tables
      leaseSeconds: $leaseSeconds
      wait: $wait
      idempotencyKey: $idempotencyKey
    ) {
      ...HeldTable
    }
  }
`);

export const renewTableLockMutation = graphql(`
  mutation RenewTableLock($table: String!, $token: String!, $leaseSeconds: Int) {
    renewTableLock(table: $table, token: $token, leaseSeconds: $leaseSeconds) {
      token
    }
  }
`);

export const releaseTableLockMutation = graphql(`
  mutation ReleaseTableLock($table: String!, $token: String!, $idempotencyKey: String) {
    releaseTableLock(table: $table, token: $token, idempotencyKey: $idempotencyKey) {
      name
      status
    }
  }
`);

export const saveRowsMutation = graphql(`
  mutation SaveRows(
    $table: String!
    $token: String!
    $changes: RowChanges!
    $idempotencyKey: String
  ) {
    saveRows(table: $table, token: $token, changes: $changes, idempotencyKey: $idempotencyKey) {
      saved
      inserted
      updated
      deleted
      rowErrors {
        change
        index
        column
        code
        message
      }
    }
  }
`);

export const lockChangedSubscription = graphql(`
  subscription LockChanged($table: String) {
    lockChanged(table: $table) {
      action
      table
      actor
      editor
      token
      reason
    }
  }
`);
