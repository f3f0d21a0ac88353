import { graphql } from '../generated';

// What the requests command sends, typed from the API's SDL by codegen.

export const changeRequestListQuery = graphql(`
  query ChangeRequestList($filter: ChangeRequestFilter, $first: Int) {
    changeRequests(filter: $filter, first: $first) {
      requests {
        id
        table
        state
        author
        submittedAt
        rowCount
        comment
      }
    }
  }
`);

export const changeRequestShowQuery = graphql(`
  query ChangeRequestShow($id: ID!) {
    changeRequest(id: $id) {
      id
      table
      state
      author
      submittedBy
      submittedAt
      comment
      decidedBy
      decidedAt
      decisionComment
      canDecide
      rows {
        action
        key
        oldValues
        newValues
      }
    }
  }
`);

export const approveChangeRequestMutation = graphql(`
  mutation CliApproveChangeRequest($id: ID!, $comment: String) {
    approveChangeRequest(id: $id, comment: $comment) {
      id
      state
    }
  }
`);

export const rejectChangeRequestMutation = graphql(`
  mutation CliRejectChangeRequest($id: ID!, $comment: String!) {
    rejectChangeRequest(id: $id, comment: $comment) {
      id
      state
    }
  }
`);
