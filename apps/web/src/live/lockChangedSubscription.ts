import { graphql } from '../generated';

export const lockChangedSubscription = graphql(`
  subscription LockChanged {
    lockChanged {
      ...LockEventFields
    }
  }
`);
