import { graphql } from '../generated';

export const forceReleaseMutation = graphql(`
  mutation ForceRelease($table: String!, $reason: String!) {
    forceRelease(table: $table, reason: $reason) {
      name
      status
    }
  }
`);

export const lockEventsQuery = graphql(`
  query LockEvents(
    $filter: LockEventFilter
    $offset: Int!
    $limit: Int!
    $before: ID
    $after: ID
  ) {
    lockEvents(filter: $filter, offset: $offset, limit: $limit, before: $before, after: $after) {
      total
      totalCapped
      hasOlder
      hasNewer
      events {
        ...LockEventFields
      }
    }
  }
`);

export const securityEventsQuery = graphql(`
  query SecurityEvents(
    $filter: SecurityEventFilter
    $offset: Int!
    $limit: Int!
    $before: ID
    $after: ID
  ) {
    securityEvents(filter: $filter, offset: $offset, limit: $limit, before: $before, after: $after) {
      total
      totalCapped
      hasOlder
      hasNewer
      events {
        id
        at
        action
        actor
        subject
        ip
        role
        previousRole
        loginFailure
        signInMethod
        groups
        failureDetail
        idleLimitSeconds
        previousIdleLimitSeconds
      }
    }
  }
`);

export const usersQuery = graphql(`
  query AdminUsers {
    users {
      id
      username
      role
      roleSource
      groups
      breakGlass
      disabled
    }
  }
`);
