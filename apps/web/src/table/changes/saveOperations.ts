import { graphql } from '../../generated';

export const saveRowsMutation = graphql(`
  mutation SaveRows($table: String!, $token: String!, $changes: RowChanges!) {
    saveRows(table: $table, token: $token, changes: $changes) {
      saved
      inserted
      updated
      deleted
      updatedVersions {
        index
        version
      }
      rowErrors {
        change
        index
        column
        code
        message
        details {
          ...RowErrorDetailsFields
        }
      }
    }
  }
`);
