import { graphql } from '../../generated';

/** One row of a filter, sorted: a value of the row-lock column, its label and the rows counted. */
export const scopeRowQuery = graphql(`
  query ScopeRow($table: String!, $sort: [RowSort!], $filter: [RowFilter!]) {
    rows(table: $table, limit: 1, sort: $sort, filter: $filter) {
      rows {
        values
      }
      total
      referenceLabels {
        column
        labels {
          key
          label
        }
      }
    }
  }
`);
