import { graphql } from '../../generated';

// The change request operations the tests send, typed from the API's SDL by codegen.

export const submitChangeRequestMutation = graphql(`
  mutation SubmitChangeRequest(
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
        id
        state
        author
        rowCount
      }
      rowErrors {
        code
        message
      }
    }
  }
`);

export const approveChangeRequestMutation = graphql(`
  mutation ApproveChangeRequest($id: ID!, $comment: String) {
    approveChangeRequest(id: $id, comment: $comment) {
      id
      state
      decidedBy
      changeSetId
    }
  }
`);

export const rejectChangeRequestMutation = graphql(`
  mutation RejectChangeRequest($id: ID!, $comment: String!) {
    rejectChangeRequest(id: $id, comment: $comment) {
      id
      state
      decidedBy
      decisionComment
    }
  }
`);

export const sendBackChangeRequestMutation = graphql(`
  mutation SendBackChangeRequest($id: ID!, $comment: String!) {
    sendBackChangeRequest(id: $id, comment: $comment) {
      id
      state
      token
    }
  }
`);

export const withdrawChangeRequestMutation = graphql(`
  mutation WithdrawChangeRequest($id: ID!) {
    withdrawChangeRequest(id: $id) {
      id
      state
      token
    }
  }
`);

export const changeRequestQuery = graphql(`
  query ChangeRequest($id: ID!) {
    changeRequest(id: $id) {
      id
      table
      state
      author
      submittedBy
      comment
      decidedBy
      decisionComment
      changeSetId
      token
      canDecide
      rows {
        action
        key
        version
        oldValues
        newValues
      }
      changedRows {
        action
        key
        code
      }
    }
  }
`);

export const changeRequestsQuery = graphql(`
  query ChangeRequests($filter: ChangeRequestFilter, $after: String, $first: Int) {
    changeRequests(filter: $filter, after: $after, first: $first) {
      requests {
        id
        state
        author
      }
      endCursor
    }
    changeRequestsToDecide
  }
`);

export const changeRequestCheckQuery = graphql(`
  query ChangeRequestCheck($id: ID!) {
    changeRequest(id: $id) {
      id
      state
      check {
        applies
        rowsChecked
        problems {
          index
          code
          column
          message
          details {
            kind
            table
          }
          currentValues
        }
      }
    }
  }
`);

export const changeRequestChecksQuery = graphql(`
  query ChangeRequestChecks {
    changeRequests(filter: { states: [pending] }) {
      requests {
        id
        check {
          applies
        }
      }
    }
  }
`);
