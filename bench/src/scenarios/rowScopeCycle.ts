import { benchPair } from '../benchDatabase';
import { createGraphQLClient, type GraphQLClient } from '../graphqlClient';
import type { RowScopeLevel } from '../report';
import type { Operation } from '../runClosedLoop';
import {
  ratioOf,
  type Subject,
  sideBySideAtLevels,
  summarizeWindows,
  type WindowPlan,
} from '../sideBySide';

const ACQUIRE = `mutation Acquire($table: String!, $rows: [String!]) {
  acquireTableLock(table: $table, rows: $rows, leaseSeconds: 60) { token } }`;
const RELEASE = `mutation Release($table: String!, $token: String!) {
  releaseTableLock(table: $table, token: $token) { name } }`;

type Acquired = { acquireTableLock: { token: string } };

/** Acquire + release through `acquireTableLock` / `releaseTableLock`: `rows` null for the whole table. */
async function cycle(
  api: GraphQLClient,
  apiKey: string,
  table: string,
  rows: string[] | null,
): Promise<boolean> {
  const { acquireTableLock } = await api.request<Acquired>(apiKey, ACQUIRE, { table, rows });
  await api.request(apiKey, RELEASE, { table, token: acquireTableLock.token });
  return true;
}

/** Client `i` edits its own table (and locks its FK table), whole: the baseline. */
function wholeTableCycle(api: GraphQLClient, apiKeys: string[]): Operation {
  return (client) => cycle(api, apiKeys[client] ?? '', benchPair(client).child, null);
}

/**
 * Client `i` takes row `i` of one table shared by every client (a scope of its key), as a
 * dozen category managers of one `products` would: the same FK table locked for all of them.
 */
function rowScopeCycle(api: GraphQLClient, apiKeys: string[]): Operation {
  return (client) => cycle(api, apiKeys[client] ?? '', benchPair(0).child, [String(client)]);
}

/** A subject whose clients run `cycle` over a keep-alive pool of their own. */
const throughGraphql = (apiUrl: string, cycleOf: (api: GraphQLClient) => Operation): Subject => ({
  async open(clients) {
    const api = createGraphQLClient(apiUrl, clients);
    return { operation: cycleOf(api), close: () => api.close() };
  },
});

/** Row scopes of one table beside whole tables of their own, in turns, at each of `levels`. */
export async function measureRowScopes(
  apiUrl: string,
  apiKeys: string[],
  levels: number[],
  windows: WindowPlan,
): Promise<RowScopeLevel[]> {
  const subjects = {
    wholeTable: throughGraphql(apiUrl, (api) => wholeTableCycle(api, apiKeys)),
    rowScope: throughGraphql(apiUrl, (api) => rowScopeCycle(api, apiKeys)),
  };
  return (await sideBySideAtLevels(subjects, levels, windows)).map(
    ({ clients, windows: { wholeTable, rowScope } }) => ({
      clients,
      wholeTable: summarizeWindows(wholeTable),
      rowScope: summarizeWindows(rowScope),
      rowScopeVs: { wholeTable: ratioOf(rowScope, wholeTable) },
    }),
  );
}
