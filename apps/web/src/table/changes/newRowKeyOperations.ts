import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import { graphql } from '../../generated';

const newRowKeysQuery = graphql(`
  query NewRowKeys($table: String!, $count: Int!) {
    newRowKeys(table: $table, count: $count)
  }
`);

/**
 * Free keys for `count` new rows, read afresh each time (staleTime 0): a save, or another
 * editor's, takes keys. Empty when the table's key is filled by the database or not numbered.
 */
export const newRowKeysOptions = (table: string, count: number) =>
  queryOptions({
    queryKey: ['newRowKeys', table, count],
    queryFn: async () => (await graphqlRequest(newRowKeysQuery, { table, count })).newRowKeys,
    staleTime: 0,
  });
