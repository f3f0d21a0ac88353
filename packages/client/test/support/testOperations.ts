import { graphql } from '../generated';

// What tests send besides the client: an admin's force-release, a rival's acquisition.

export const forceReleaseMutation = graphql(`
  mutation AdminForceRelease($table: String!, $reason: String!) {
    forceRelease(table: $table, reason: $reason) {
      status
    }
  }
`);

export const acquireTableLockMutation = graphql(`
  mutation RivalAcquire($table: String!) {
    acquireTableLock(table: $table) {
      token
    }
  }
`);

export const releaseTableLockMutation = graphql(`
  mutation RivalRelease($table: String!, $token: String!) {
    releaseTableLock(table: $table, token: $token) {
      status
    }
  }
`);

export const takeOverTableLockMutation = graphql(`
  mutation AdminTakeOver($table: String!, $reason: String!) {
    takeOverTableLock(table: $table, reason: $reason) {
      token
    }
  }
`);

export const enforceWriteGuardMutation = graphql(`
  mutation EnforceWriteGuard($table: String!) {
    setTablePolicy(table: $table, policy: { writeGuard: ENFORCE }) {
      writeGuard
    }
  }
`);

export const submitChangeRequestMutation = graphql(`
  mutation AuthorSubmits($table: String!, $token: String!, $changes: RowChanges!, $comment: String) {
    submitChangeRequest(table: $table, token: $token, changes: $changes, comment: $comment) {
      request {
        id
      }
    }
  }
`);

export const approveChangeRequestMutation = graphql(`
  mutation ReviewerApprove($id: ID!, $comment: String) {
    approveChangeRequest(id: $id, comment: $comment) {
      state
    }
  }
`);
