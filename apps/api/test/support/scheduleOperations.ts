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

export const createEditionMutation = graphql(`
  mutation CreateEdition($name: String!, $effectiveAt: DateTime!) {
    createEdition(name: $name, effectiveAt: $effectiveAt) {
      id
      state
      effectiveAt
    }
  }
`);

export const scheduleInEditionMutation = graphql(`
  mutation ScheduleInEdition(
    $table: String!
    $token: String!
    $changes: RowChanges!
    $editionId: ID!
  ) {
    submitChangeRequest(table: $table, token: $token, changes: $changes, editionId: $editionId) {
      submitted
      request {
        id
        state
        editionId
      }
    }
  }
`);

export const editionQuery = graphql(`
  query Edition($id: ID!) {
    edition(id: $id) {
      id
      name
      state
      requests {
        id
        state
        table
      }
    }
  }
`);
