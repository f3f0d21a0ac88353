import { graphql } from '../generated';

graphql(`
  fragment LockSettingsFields on LockSettings {
    idleLimitSeconds
    minIdleLimitSeconds
    maxIdleLimitSeconds
    tables {
      table
      idleLimitSeconds
    }
  }
`);

export const lockSettingsQuery = graphql(`
  query LockSettings {
    lockSettings {
      ...LockSettingsFields
    }
  }
`);

export const setIdleLimitMutation = graphql(`
  mutation SetIdleLimit($seconds: Int!) {
    setIdleLimit(seconds: $seconds) {
      ...LockSettingsFields
    }
  }
`);

export const setTableIdleLimitMutation = graphql(`
  mutation SetTableIdleLimit($table: String!, $seconds: Int) {
    setTableIdleLimit(table: $table, seconds: $seconds) {
      ...LockSettingsFields
    }
  }
`);
