import { graphql } from '../../generated';

export const rowPageQuery = graphql(`
  query RowPage(
    $table: String!
    $offset: Int
    $after: String
    $before: String
    $limit: Int!
    $sort: [RowSort!]
    $filter: [RowFilter!]
    $asOf: DateTime
  ) {
    rows(
      table: $table
      offset: $offset
      after: $after
      before: $before
      limit: $limit
      sort: $sort
      filter: $filter
      asOf: $asOf
    ) {
      rows {
        key
        version
        values
        scheduledChanges {
          column
          changeRequestId
          effectiveAt
          oldValue
          newValue
        }
      }
      total
      startCursor
      endCursor
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

export const tableColumnsQuery = graphql(`
  query TableColumns($table: String!) {
    rows(table: $table, offset: 0, limit: 1) {
      columns {
        name
        dataType
        kind
        nullable
        hasDefault
        primaryKey
        unique
        maxLength
        references
        captions {
          language
          name
          description
        }
      }
      tableCaptions {
        language
        name
        description
      }
      total
      editable
    }
  }
`);
