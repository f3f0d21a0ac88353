import { graphql } from '../generated';

export const tablesQuery = graphql(`
  query Tables {
    tables {
      name
      status
      editor
      lockedBy
      references
      referencedBy
      version
      updatedAt
      acquiredAt
      leaseExpiresAt
      editBlock {
        kind
        reason
        blockers {
          table
          editor
        }
      }
      waiters {
        editor
      }
      frozen {
        reason
        until
      }
      policy {
        readOnly
        takesPartInLocking
      }
      canTakeOver
    }
  }
`);
