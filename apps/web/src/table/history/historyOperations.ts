import { graphql } from '../../generated';

export const tableChangesQuery = graphql(`
  query TableChanges($table: String!, $filter: ChangeSetFilter, $after: String, $first: Int!) {
    tableChanges(table: $table, filter: $filter, after: $after, first: $first) {
      changes {
        id
        kind
        actor
        dbRole
        applicationName
        revertsChangeId
        approvedBy
        at
        rowsInserted
        rowsUpdated
        rowsDeleted
      }
      endCursor
    }
  }
`);

export const changeRowsQuery = graphql(`
  query ChangeRows($table: String!, $id: ID!, $after: String, $first: Int!) {
    tableChange(table: $table, id: $id) {
      rows(after: $after, first: $first) {
        rows {
          id
          key
          operation
          oldValues
          newValues
        }
        endCursor
      }
    }
  }
`);

export const rowHistoryQuery = graphql(`
  query RowHistory($table: String!, $key: JSON!, $after: String, $first: Int!) {
    rowHistory(table: $table, key: $key, after: $after, first: $first) {
      rows {
        id
        operation
        oldValues
        newValues
        change {
          id
          kind
          actor
          dbRole
          at
        }
      }
      endCursor
    }
  }
`);

export const revertChangeMutation = graphql(`
  mutation RevertChange(
    $table: String!
    $changeId: ID!
    $token: String!
    $rows: [JSON!]
    $dryRun: Boolean!
  ) {
    revertChange(table: $table, changeId: $changeId, token: $token, rows: $rows, dryRun: $dryRun) {
      reverted
      revertChangeId
      rows {
        key
        action
        values
      }
      conflicts {
        key
        reason
        laterChange {
          id
          actor
          dbRole
          at
        }
      }
      rowErrors {
        key
        code
        column
        message
        details {
          ...RowErrorDetailsFields
        }
      }
    }
  }
`);
