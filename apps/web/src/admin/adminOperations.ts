import { graphql } from '../generated';

export const forceReleaseMutation = graphql(`
  mutation ForceRelease($table: String!, $reason: String!) {
    forceRelease(table: $table, reason: $reason) {
      name
      status
    }
  }
`);
