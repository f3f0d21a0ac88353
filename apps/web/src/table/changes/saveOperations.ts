import { graphql } from '../../generated';

// One list of what a refused row says, for the save and for a submission alike.
export const saveRowErrorFields = graphql(`
  fragment SaveRowErrorFields on RowError {
    change
    index
    column
    code
    message
    details {
      ...RowErrorDetailsFields
    }
  }
`);

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
        ...SaveRowErrorFields
      }
    }
  }
`);

/**
 * The changes become a change request: on a table that needs approval, for an approver; with
 * `effectiveAt` (or an edition's time), applied by the API then ("Apply on…").
 */
export const submitChangeRequestMutation = graphql(`
  mutation SubmitForApproval(
    $table: String!
    $token: String!
    $changes: RowChanges!
    $comment: String
    $keepEditing: Boolean
    $effectiveAt: DateTime
    $editionId: ID
  ) {
    submitChangeRequest(
      table: $table
      token: $token
      changes: $changes
      comment: $comment
      keepEditing: $keepEditing
      effectiveAt: $effectiveAt
      editionId: $editionId
    ) {
      submitted
      request {
        id
        state
        effectiveAt
      }
      rowErrors {
        ...SaveRowErrorFields
      }
    }
  }
`);
