import { graphql } from '../generated';

export const lockChangedSubscription = graphql(`
  subscription LockChanged {
    lockChanged {
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
`);
