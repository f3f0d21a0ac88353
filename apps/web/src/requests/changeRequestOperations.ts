import { graphql } from '../generated';

export const requestsToDecideQuery = graphql(`
  query RequestsToDecide {
    changeRequestsToDecide
  }
`);

export const requestQueueQuery = graphql(`
  query RequestQueue {
    changeRequests(filter: { toDecide: true }) {
      requests {
        id
        table
        author
        comment
        submittedAt
        rowCount
      }
    }
  }
`);

export const ownRequestsQuery = graphql(`
  query OwnRequests(
    $author: String!
    $states: [ChangeRequestState!]!
    $after: String
    $first: Int
  ) {
    changeRequests(filter: { author: $author, states: $states }, after: $after, first: $first) {
      requests {
        id
        table
        state
        comment
        submittedAt
        rowCount
        decidedBy
        decidedAt
        decisionComment
        ...ScheduledRequestFields
      }
      endCursor
    }
  }
`);

export const requestRowProblemFields = graphql(`
  fragment RequestRowProblemFields on ChangeRequestRowProblem {
    index
    code
    column
    message
    details {
      ...RowErrorDetailsFields
    }
    currentValues
  }
`);

export const changeRequestDetailQuery = graphql(`
  query ChangeRequestDetail($id: ID!) {
    changeRequest(id: $id) {
      id
      table
      state
      author
      comment
      submittedAt
      rowCount
      canDecide
      decidedBy
      decisionComment
      rows {
        action
        key
        oldValues
        newValues
      }
      check {
        applies
        rowsChecked
        problems {
          ...RequestRowProblemFields
        }
      }
    }
  }
`);

export const latestOwnRequestQuery = graphql(`
  query LatestOwnRequest($table: String!, $author: String!) {
    changeRequests(filter: { table: $table, author: $author }, first: 1) {
      requests {
        id
        state
        effectiveAt
        decidedBy
        decisionComment
        token
      }
    }
  }
`);

export const approveRequestMutation = graphql(`
  mutation ApproveRequest($id: ID!, $comment: String) {
    approveChangeRequest(id: $id, comment: $comment) {
      id
      state
    }
  }
`);

export const rejectRequestMutation = graphql(`
  mutation RejectRequest($id: ID!, $comment: String!) {
    rejectChangeRequest(id: $id, comment: $comment) {
      id
      state
    }
  }
`);

export const sendBackRequestMutation = graphql(`
  mutation SendBackRequest($id: ID!, $comment: String!) {
    sendBackChangeRequest(id: $id, comment: $comment) {
      id
      state
    }
  }
`);

export const requestArrivedSubscription = graphql(`
  subscription RequestArrived {
    changeRequestChanged {
      id
      table
      author
      state
      canDecide
    }
  }
`);

export const ownRequestDecidedSubscription = graphql(`
  subscription OwnRequestDecided {
    changeRequestChanged {
      id
      table
      author
      state
      decidedBy
      decisionComment
    }
  }
`);
