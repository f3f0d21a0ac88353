import { graphql } from '../generated';

export const lockChangedSubscription = graphql(`
  subscription LockChanged {
    lockChanged {
      ...LockEventFields
      tables {
        name
        status
        previousStatus
        editor
        lockedBy
        version
        updatedAt
        acquiredAt
        leaseExpiresAt
      }
    }
  }
`);
