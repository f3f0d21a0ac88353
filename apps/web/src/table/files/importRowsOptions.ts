import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { ImportOutcome } from '../../generated/graphql';
import { type DryRun, importRowsQuery } from './importOperations';

/** A page of a dry run's rows: those with one of `outcomes` (every row when empty). */
export interface ImportRowsPage {
  outcomes: readonly ImportOutcome[];
  offset: number;
  limit: number;
}

/** A page of the kept dry run's rows; nothing to read before there is a dry run. */
export const importRowsOptions = (dryRun: DryRun | null, page: ImportRowsPage) =>
  queryOptions({
    queryKey: ['importRows', dryRun?.id, page],
    enabled: dryRun !== null,
    queryFn: () =>
      graphqlRequest(importRowsQuery, {
        id: dryRun?.id ?? '',
        outcomes: [...page.outcomes],
        offset: page.offset,
        limit: page.limit,
      }),
  });
