import { graphql } from '../../generated';

export const acquireTableLockMutation = graphql(`
  mutation AcquireTableLock($table: String!, $leaseSeconds: Int, $rows: [String!]) {
    acquireTableLock(table: $table, leaseSeconds: $leaseSeconds, rows: $rows) {
      token
      leaseExpiresAt
      rows
    }
  }
`);

export const renewTableLockMutation = graphql(`
  mutation RenewTableLock($table: String!, $token: String!, $leaseSeconds: Int, $active: Boolean!) {
    renewTableLock(table: $table, token: $token, leaseSeconds: $leaseSeconds, active: $active) {
      token
      leaseExpiresAt
      lastActiveAt
      idleLimitSeconds
    }
  }
`);

export const takeOverTableLockMutation = graphql(`
  mutation TakeOverTableLock($table: String!, $reason: String!, $leaseSeconds: Int) {
    takeOverTableLock(table: $table, reason: $reason, leaseSeconds: $leaseSeconds) {
      token
      leaseExpiresAt
    }
  }
`);

export const releaseTableLockMutation = graphql(`
  mutation ReleaseTableLock($table: String!, $token: String!) {
    releaseTableLock(table: $table, token: $token) {
      name
      status
    }
  }
`);
