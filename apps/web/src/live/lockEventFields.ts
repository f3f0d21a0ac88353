import { graphql } from '../generated';

/** What the app shows of a lock event, wherever it comes from (live, history, a lost lock). */
export const lockEventFields = graphql(`
  fragment LockEventFields on LockEvent {
    id
    at
    action
    table
    actor
    editor
    token
    reason
    rowsChanged
    previousEditor
  }
`);
