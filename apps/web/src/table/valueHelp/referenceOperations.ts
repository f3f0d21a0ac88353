import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import { graphql } from '../../generated';

export const referenceOptionsQuery = graphql(`
  query ReferenceOptions($table: String!, $column: String!, $search: String, $first: Int) {
    referenceOptions(table: $table, column: $column, search: $search, first: $first) {
      table
      labelColumn
      options {
        key
        label
      }
      endCursor
    }
  }
`);

/**
 * The referenced row of one key, for a value typed or pasted whose label the grid has not seen:
 * the search puts the row whose key it is first; null when no row has that key.
 */
export const referencedRowOptions = (table: string, column: string, key: string) =>
  queryOptions({
    queryKey: ['referencedRow', table, column, key],
    queryFn: async () => {
      const { referenceOptions } = await graphqlRequest(referenceOptionsQuery, {
        table,
        column,
        search: key,
        first: 1,
      });
      const [first] = referenceOptions.options;
      return { table: referenceOptions.table, row: first?.key === key ? first : null };
    },
  });
