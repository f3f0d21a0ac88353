import { graphql } from '../generated';

export const scheduleChangeMutation = graphql(`
  mutation ScheduleChange(
    $table: String!
    $token: String!
    $changes: RowChanges!
    $effectiveAt: DateTime!
  ) {
    submitChangeRequest(
      table: $table
      token: $token
      changes: $changes
      effectiveAt: $effectiveAt
    ) {
      submitted
      request {
        id
        state
        effectiveAt
      }
    }
  }
`);

export const moveChangeRequestMutation = graphql(`
  mutation MoveChangeRequest($id: ID!, $effectiveAt: DateTime!) {
    moveChangeRequest(id: $id, effectiveAt: $effectiveAt) {
      id
      state
      effectiveAt
    }
  }
`);
