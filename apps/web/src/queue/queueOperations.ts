import { graphql } from '../generated';

export const waitForTableSubscription = graphql(`
  subscription WaitForTable($table: String!) {
    waitForTable(table: $table) {
      table
      state
      position
      ahead {
        editor
      }
      reservedUntil
    }
  }
`);
