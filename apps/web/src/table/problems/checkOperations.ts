import { graphql } from '../../generated';

/** Every refusal of the pending changes at once, from a save tried and rolled back. */
export const checkRowsQuery = graphql(`
  query CheckRows($table: String!, $token: String!, $changes: RowChanges!) {
    checkRows(table: $table, token: $token, changes: $changes) {
      valid
      rowErrors {
        ...SaveRowErrorFields
      }
    }
  }
`);
