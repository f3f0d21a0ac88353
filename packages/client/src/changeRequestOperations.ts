import { graphql } from './generated';

// What submitting a change request and waiting for its decision send, typed from the SDL.

graphql(`
  fragment RequestOutcome on ChangeRequest {
    id
    table
    state
    author
    decidedBy
    decidedAt
    decisionComment
    changedRows {
      action
      key
      code
      message
    }
    token
  }
`);

export const submitChangeRequestMutation = graphql(`
  mutation ClientSubmitChangeRequest(
    $table: String!
    $token: String!
    $changes: RowChanges
    $importDryRunId: ID
    $comment: String
    $keepEditing: Boolean
  ) {
    submitChangeRequest(
      table: $table
      token: $token
      changes: $changes
      importDryRunId: $importDryRunId
      comment: $comment
      keepEditing: $keepEditing
    ) {
      submitted
      request {
        ...RequestOutcome
      }
      rowErrors {
        change
        index
        column
        code
        message
      }
    }
  }
`);

export const requestOutcomeQuery = graphql(`
  query RequestOutcome($id: ID!) {
    changeRequest(id: $id) {
      ...RequestOutcome
    }
  }
`);

export const requestStepsSubscription = graphql(`
  subscription RequestSteps($table: String) {
    changeRequestChanged(table: $table) {
      ...RequestOutcome
    }
  }
`);
