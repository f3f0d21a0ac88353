import type { ApolloServer } from '@apollo/server';
import type { Principal } from '@tablelock/identity';
// The web app's own documents, character for character: Apollo's document cache is keyed by the
// query's text, so only these strings spare the page's first reads their parse and validation.
import {
  GridLayoutDocument,
  LatestOwnRequestDocument,
  MeDocument,
  RequestsToDecideDocument,
  RowPageDocument,
  SavedViewsDocument,
  TableColumnsDocument,
  TableWithReferencesDocument,
} from '../../../web/src/generated/graphql';
import type { ApiContext, ApiServices } from '../context';
import { settledWithin } from '../process/settledWithin';

/**
 * Who the warm-up reads as, a person as on the page: no user has this id (the nil UUID) or
 * name, and it only reads, so nothing of anyone's is touched and nothing is audited.
 */
export const WARM_UP_PRINCIPAL: Principal = {
  kind: 'user',
  id: '00000000-0000-0000-0000-000000000000',
  name: '(warm-up)',
  role: 'viewer',
  groups: [],
  roleSource: 'local',
};

/** How long a start waits for the warm-up; reads still running then finish unwatched. */
export const WARM_UP_LIMIT_MS = 5_000;

/**
 * The reads the table page sends when it opens (its loaders' and its components'), as it sends
 * them, on `table`.
 */
function tablePageReads(table: string): { query: string; variables?: Record<string, unknown> }[] {
  return [
    { query: MeDocument.toString() },
    {
      query: RowPageDocument.toString(),
      variables: { table, sort: [], filter: [], offset: 0, limit: 100 },
    },
    { query: TableWithReferencesDocument.toString(), variables: { name: table } },
    { query: TableColumnsDocument.toString(), variables: { table } },
    { query: GridLayoutDocument.toString(), variables: { table } },
    { query: SavedViewsDocument.toString(), variables: { table } },
    { query: RequestsToDecideDocument.toString() },
    {
      query: LatestOwnRequestDocument.toString(),
      variables: { table, author: WARM_UP_PRINCIPAL.name },
    },
  ];
}

/**
 * Runs the table page's first reads once, in this process, on the registry's first table, before
 * the server takes requests: a freshly started process otherwise makes the first person to open
 * a table wait while graphql-js, Apollo's document cache, Prisma's query compiler and the pool's
 * connections warm up on their request (about 300 ms, against 50-90 ms warm). It only reads; a
 * failure is logged and the start goes on, and it is waited for WARM_UP_LIMIT_MS at most.
 * Resolves to how many reads answered without errors.
 */
export async function warmUpTablePage(
  apollo: ApolloServer<ApiContext>,
  services: ApiServices,
): Promise<number> {
  const logger = services.logger.child({ warmUp: 'table page' });
  const warmUp = async () => {
    const first = await services.prisma.tableLock.findFirst({
      select: { tableName: true },
      orderBy: { tableName: 'asc' },
    });
    if (!first) return 0;
    const contextValue: ApiContext = {
      ...services,
      logger,
      principal: WARM_UP_PRINCIPAL,
      credentialError: null,
      sessionToken: null,
      staleSessionCookie: false,
    };
    const answers = await Promise.all(
      tablePageReads(first.tableName).map((request) =>
        apollo.executeOperation(request, { contextValue }),
      ),
    );
    const errors = answers.map(({ body }) =>
      body.kind === 'single' ? (body.singleResult.errors ?? []) : [],
    );
    for (const error of errors.flat())
      logger.warn({ error: error.message }, 'a warm-up read failed');
    const answered = errors.filter((found) => found.length === 0).length;
    logger.info({ table: first.tableName, answered, of: answers.length }, 'warmed up');
    return answered;
  };
  try {
    const settled = await settledWithin(WARM_UP_LIMIT_MS, warmUp);
    if (settled.done) return settled.value;
    logger.warn(`warm-up not done within ${WARM_UP_LIMIT_MS} ms; starting without it`);
    return 0;
  } catch (error) {
    logger.warn({ err: error }, 'warm-up failed; starting without it');
    return 0;
  }
}
