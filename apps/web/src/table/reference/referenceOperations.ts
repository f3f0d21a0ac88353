import { graphql } from '../../generated';

export const referenceOptionsQuery = graphql(`
  query ReferenceOptions($table: String!, $column: String!, $search: String, $first: Int) {
    referenceOptions(table: $table, column: $column, search: $search, first: $first) {
      table
      labelColumn
      options {
        key
        label
      }
      endCursor
    }
  }
`);
