import { graphql } from '../../generated';

/** The facts behind a refused row, from which saveErrorText says it in the user's language. */
export const rowErrorDetailsFields = graphql(`
  fragment RowErrorDetailsFields on RowErrorDetails {
    kind
    column
    value
    table
    targetColumn
    row
    count
    comparison
    bound
    upperBound
    rule
    period
    holder
  }
`);
