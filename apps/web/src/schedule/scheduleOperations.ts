import { graphql } from '../generated';

/** What My requests and the calendar show of a request that takes effect on a date. */
export const scheduledRequestFields = graphql(`
  fragment ScheduledRequestFields on ChangeRequest {
    effectiveAt
    appliedAt
    lateBySeconds
    editionId
    failure {
      reason
      message
      holder
      rows {
        action
        key
        code
        message
      }
    }
  }
`);

export const editionsQuery = graphql(`
  query Editions {
    editions {
      id
      name
      effectiveAt
      state
      createdBy
      appliedAt
      lateBySeconds
      failure {
        reason
        message
        holder
      }
      requests {
        id
        table
        author
        state
      }
    }
  }
`);

// Only what the calendar shows: a literal `first` multiplies the operation's cost (graphql-armor),
// and the failures' rows of a hundred requests would take it over the API's limit.
export const calendarRequestsQuery = graphql(`
  query CalendarRequests($table: String) {
    changeRequests(filter: { table: $table, scheduled: true }, first: 100) {
      requests {
        id
        table
        author
        state
        comment
        effectiveAt
        editionId
      }
    }
  }
`);

export const moveRequestMutation = graphql(`
  mutation MoveRequest($id: ID!, $effectiveAt: DateTime!) {
    moveChangeRequest(id: $id, effectiveAt: $effectiveAt) {
      id
      state
      effectiveAt
    }
  }
`);

export const withdrawRequestMutation = graphql(`
  mutation WithdrawRequest($id: ID!) {
    withdrawChangeRequest(id: $id) {
      id
      state
    }
  }
`);
