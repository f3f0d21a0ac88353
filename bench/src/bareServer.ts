import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { LockRow, LockRowChange } from '@tablelock/lock/sql';
import express from 'express';
import pg from 'pg';
import { transition } from './scenarios/rawSqlLockCycle';

/**
 * The bare GraphQL server: the most any server built of the API's parts (Express 5, Apollo
 * Server 5, graphql-js, `pg`) can do on the lock path. No authentication, plugins, logging or
 * state machine: `UpdateTableStatusWithLock`'s resolver runs the raw SQL floor's two
 * statements with the floor's inline status checks. The bench starts it as a process of its
 * own (startBareServerProcess), like the API. Settings: DATABASE_URL, PORT, DB_POOL_SIZE.
 */

interface LockInput {
  table_name: string;
  current_status: string;
  target_status: string;
  fk_table_name?: string[] | null;
  editor?: string | null;
}

const LEASE_SECONDS = 60;

// The API's own legacy SDL, so both answer the same schema; graphql-js wants a Query type.
const typeDefs = `${readFileSync(
  new URL('../../apps/api/src/graphql/schema/legacy.graphql', import.meta.url),
  'utf8',
)}\ntype Query { bare: Boolean }`;

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 10),
});

/** The editor: the one named, else one per bearer token (hashed: no key lands in the history), never looked up. */
function editorOf(input: LockInput, authorization: string | undefined): string {
  if (input.editor) return input.editor;
  return `bearer:${createHash('sha256')
    .update(authorization ?? '')
    .digest('base64url')
    .slice(0, 16)}`;
}

/** The tables whose status the answer gives, besides the table: the named ones, else its FK targets. */
function fkTablesOf(input: LockInput, rows: ReadonlyMap<string, LockRow>): string[] {
  return input.fk_table_name ?? rows.get(input.table_name)?.references ?? [];
}

/** The floor's inline checks for any table: acquire from normal, release one's own. */
function decide(
  input: LockInput,
  editor: string,
  rows: ReadonlyMap<string, LockRow>,
): LockRowChange[] | undefined {
  const main = rows.get(input.table_name);
  if (!main || main.status !== input.current_status) return undefined;
  const fkRows = fkTablesOf(input, rows).flatMap((name) => rows.get(name) ?? []);
  if (input.target_status === 'editing') {
    if (fkRows.some((row) => row.status === 'editing')) return undefined;
    return [
      { row: { ...main, status: 'editing', editor }, grant: true, leaseSeconds: LEASE_SECONDS },
      ...fkRows.map((row) => ({
        row: {
          ...row,
          status: 'locked' as const,
          lockedBy: [...row.lockedBy, main.tableName].sort(),
        },
      })),
    ];
  }
  if (main.editor !== editor) return undefined;
  return [
    { row: { ...main, status: 'normal', editor: null } },
    ...fkRows.map((row) => {
      const lockedBy = row.lockedBy.filter((name) => name !== main.tableName);
      const status = lockedBy.length > 0 ? ('locked' as const) : ('normal' as const);
      return { row: { ...row, status, lockedBy } };
    }),
  ];
}

const resolvers = {
  Mutation: {
    async UpdateTableStatusWithLock(
      _parent: unknown,
      { input }: { input: LockInput },
      { authorization }: { authorization: string | undefined },
    ) {
      const editor = editorOf(input, authorization);
      let read: ReadonlyMap<string, LockRow> = new Map();
      let planned: LockRowChange[] = [];
      const granted = await transition(
        pool,
        input.table_name,
        input.fk_table_name ?? [],
        input.target_status === 'editing' ? 'acquire' : 'release',
        editor,
        (rows) => {
          read = rows;
          planned = decide(input, editor, rows) ?? [];
          return planned.length > 0 ? planned : undefined;
        },
      );
      const statusOf = (name: string) =>
        (granted && planned.find((change) => change.row.tableName === name)?.row.status) ||
        read.get(name)?.status;
      return {
        lock_result: granted,
        current_status: statusOf(input.table_name),
        fk_current_status: fkTablesOf(input, read).map((name) => ({
          table_name: name,
          current_status: statusOf(name),
        })),
      };
    },
  },
};

const apollo = new ApolloServer<{ authorization: string | undefined }>({
  typeDefs,
  resolvers,
  // Off, as in the API: neither does anything this schema needs.
  plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled()],
  stringifyResult: (result) => JSON.stringify(result),
});
await apollo.start();

const app = express();
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
app.use(
  '/graphql',
  express.json({ limit: '100kb' }),
  expressMiddleware(apollo, {
    context: async ({ req }) => ({ authorization: req.headers.authorization }),
  }),
);
app.listen(Number(process.env.PORT), '127.0.0.1');
