import type { Role } from '@tablelock/db';
import { createApiKey, createUser, roleAtLeast } from '@tablelock/identity';
import {
  createTestDatabase,
  resetLockRegistry,
  TEST_AUDIT,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FIELD_ACCESS, fieldRequirement, type RootType } from '../src/graphql/fieldAccess';
import { schema } from '../src/graphql/schema';
import { graphql } from './generated';
import type { TypedDocumentString } from './generated/graphql';
import {
  createApiKeyMutation,
  createUserMutation,
  principalQuery,
  revokeApiKeyMutation,
} from './support/identityOperations';
import { acquireByLegacyMutation } from './support/lockApi';
import { forceReleaseMutation } from './support/lockOperations';
import { readRegistry } from './support/registry';
import {
  type GraphQLResponse,
  startTestApi,
  type TestApi,
  type TestClient,
} from './support/testApi';

type Outcome = 'ok' | 'UNAUTHENTICATED' | 'FORBIDDEN';

interface Caller {
  label: string;
  /** What `me` must say for this caller; null when anonymous. */
  principal: { kind: 'user' | 'apiKey'; name: string; role: Role } | null;
  connect(api: TestApi): Promise<TestClient>;
}

const user = (username: string, role: Role): Caller => ({
  label: `${username} (${role})`,
  principal: { kind: 'user', name: username, role },
  connect: (api) => api.loginAs(username),
});
const apiKey = (role: Role): Caller => ({
  label: `key:matrix-${role} (${role})`,
  principal: { kind: 'apiKey', name: `key:matrix-${role}`, role },
  connect: (api) => api.withApiKey(`matrix-${role}`, role),
});

const CALLERS: Caller[] = [
  { label: 'anonymous', principal: null, connect: async (api) => api.anonymous },
  user('carol', 'viewer'),
  user('alice', 'editor'),
  user('admin', 'admin'),
  apiKey('viewer'),
  apiKey('editor'),
  apiKey('admin'),
];

const o = 'ok';
const U = 'UNAUTHENTICATED';
const F = 'FORBIDDEN';

// The specification, written out rather than derived from the role ranks it is meant to check.
// biome-ignore format: the columns line up with CALLERS
const MATRIX: Record<string, Outcome[]> = {
  //                           anon carol alice admin keyV keyE keyA
  tables:                     [U,   o,    o,    o,    o,   o,   o],
  table:                      [U,   o,    o,    o,    o,   o,   o],
  me:                         [o,   o,    o,    o,    o,   o,   o],
  users:                      [U,   F,    F,    o,    F,   F,   o],
  apiKeys:                    [U,   F,    F,    o,    F,   F,   o],
  UpdateTableStatusWithLock:  [U,   F,    o,    o,    F,   o,   o],
  forceRelease:               [U,   F,    F,    o,    F,   F,   o],
  syncTableRegistry:          [U,   F,    F,    o,    F,   F,   o],
  createUser:                 [U,   F,    F,    o,    F,   F,   o],
  updateUser:                 [U,   F,    F,    o,    F,   F,   o],
  createApiKey:               [U,   F,    F,    o,    F,   F,   o],
  revokeApiKey:               [U,   F,    F,    o,    F,   F,   o],
  introspection:              [U,   o,    o,    o,    o,   o,   o],
  rows:                       [U,   o,    o,    o,    o,   o,   o],
  lockEvents:                 [U,   o,    o,    o,    o,   o,   o],
  securityEvents:             [U,   F,    F,    o,    F,   F,   o],
  acquireTableLock:           [U,   F,    o,    o,    F,   o,   o],
};

/** One attempt at an operation, prepared afresh for each cell. */
interface Attempt {
  send(client: TestClient): Promise<GraphQLResponse<Record<string, unknown>>>;
  /** The state a refused call must leave as it was. */
  observe?(): Promise<unknown>;
  /** Checks the answer (and effect) of an allowed call. */
  expectOk(data: Record<string, unknown> | null | undefined, caller: Caller): Promise<void> | void;
}

/** Attempt's observe and expectOk for one typed document: expectOk sees its typed response. */
interface Checks<TResult> {
  observe?(): Promise<unknown>;
  expectOk(data: TResult | null | undefined, caller: Caller): Promise<void> | void;
}

/**
 * An Attempt that sends `document` (typed by codegen from the SDL). The cells handle every
 * operation alike, so Attempt is untyped; `checks` see the response as the document types it,
 * which is sound because it is this document's response.
 */
function sending<
  TResult extends Record<string, unknown>,
  TVariables extends Record<string, unknown>,
>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
  checks: Checks<TResult>,
): Attempt {
  return {
    send: (client) => client.graphql<TResult>(document.toString(), variables),
    ...(checks.observe ? { observe: checks.observe } : {}),
    expectOk: (data, caller) => checks.expectOk(data as TResult | null | undefined, caller),
  };
}

const tableStatusesQuery = graphql(`
  query TableStatuses {
    tables {
      name
      status
    }
  }
`);
const tableReferencesQuery = graphql(`
  query TableReferences($name: String!) {
    table(name: $name) {
      name
      references
    }
  }
`);
const rowKeysQuery = graphql(`
  query RowKeys($table: String!, $limit: Int) {
    rows(table: $table, limit: $limit) {
      total
      rows {
        key
      }
    }
  }
`);
const lockEventTotalQuery = graphql(`
  query LockEventTotal($limit: Int) {
    lockEvents(limit: $limit) {
      total
    }
  }
`);
const securityEventTotalQuery = graphql(`
  query SecurityEventTotal($limit: Int) {
    securityEvents(limit: $limit) {
      total
    }
  }
`);
const acquireTableLockEditorMutation = graphql(`
  mutation AcquireTableLockEditor($table: String!) {
    acquireTableLock(table: $table) {
      editor
      token
    }
  }
`);
const usersQuery = graphql(`
  query Users {
    users {
      username
      role
      disabled
    }
  }
`);
const apiKeyStatesQuery = graphql(`
  query ApiKeyStates {
    apiKeys {
      name
      role
      revokedAt
    }
  }
`);
const legacyLockStatusMutation = graphql(`
  mutation LegacyLockStatus($input: UpdateTableStatusWithLockInput!) {
    UpdateTableStatusWithLock(input: $input) {
      lock_result
      current_status
    }
  }
`);
const syncTableRegistryMutation = graphql(`
  mutation SyncTableRegistry {
    syncTableRegistry {
      added
      removed
    }
  }
`);
const updateUserRoleMutation = graphql(`
  mutation UpdateUserRole($username: String!, $role: Role) {
    updateUser(username: $username, role: $role) {
      role
    }
  }
`);
const queryTypeNameQuery = graphql(`
  query QueryTypeName {
    __schema {
      queryType {
        name
      }
    }
  }
`);

let database: TestDatabase;
let api: TestApi;
let bob: TestClient;
const clients = new Map<string, TestClient>();
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

const registryRow = async (table: string) => (await readRegistry(database.prisma)).get(table);
const apiKeyRow = (name: string) =>
  database.prisma.apiKey.findUnique({ where: { name }, select: { role: true, revokedAt: true } });

const OPERATIONS: Record<string, () => Promise<Attempt>> = {
  tables: async () =>
    sending(
      tableStatusesQuery,
      {},
      {
        expectOk(data) {
          expect(data?.tables).toContainEqual({ name: 'currencies', status: 'normal' });
        },
      },
    ),
  table: async () =>
    sending(
      tableReferencesQuery,
      { name: 'products' },
      {
        expectOk(data) {
          expect(data?.table).toEqual({
            name: 'products',
            references: ['categories', 'currencies', 'suppliers'],
          });
        },
      },
    ),
  rows: async () =>
    sending(
      rowKeysQuery,
      { table: 'currencies', limit: 2 },
      {
        expectOk(data) {
          expect(data?.rows).toEqual({
            total: 6,
            rows: [{ key: { code: 'CNY' } }, { key: { code: 'EUR' } }],
          });
        },
      },
    ),
  lockEvents: async () =>
    sending(
      lockEventTotalQuery,
      { limit: 1 },
      {
        expectOk(data) {
          expect(data?.lockEvents).toEqual({ total: expect.any(Number) });
        },
      },
    ),
  securityEvents: async () =>
    sending(
      securityEventTotalQuery,
      { limit: 1 },
      {
        expectOk(data) {
          expect(data?.securityEvents).toEqual({ total: expect.any(Number) });
        },
      },
    ),
  acquireTableLock: async () =>
    sending(
      acquireTableLockEditorMutation,
      { table: 'regions' },
      {
        observe: () => registryRow('regions'),
        async expectOk(data, caller) {
          expect(data?.acquireTableLock).toEqual({
            editor: caller.principal?.name,
            token: expect.stringMatching(/^\d+$/),
          });
          expect(await registryRow('regions')).toMatchObject({
            status: 'editing',
            editor: caller.principal?.name,
          });
        },
      },
    ),
  me: async () =>
    sending(
      principalQuery,
      {},
      {
        expectOk(data, caller) {
          expect(data?.me).toEqual(caller.principal);
        },
      },
    ),
  users: async () =>
    sending(
      usersQuery,
      {},
      {
        expectOk(data) {
          expect(data?.users).toContainEqual({
            username: 'carol',
            role: 'viewer',
            disabled: false,
          });
        },
      },
    ),
  apiKeys: async () =>
    sending(
      apiKeyStatesQuery,
      {},
      {
        expectOk(data) {
          expect(data?.apiKeys).toContainEqual({
            name: 'matrix-editor',
            role: 'editor',
            revokedAt: null,
          });
        },
      },
    ),
  UpdateTableStatusWithLock: async () =>
    // `currencies` references nothing, so the call touches this one row only.
    sending(
      legacyLockStatusMutation,
      { input: { table_name: 'currencies', current_status: 'normal', target_status: 'editing' } },
      {
        observe: () => readRegistry(database.prisma),
        async expectOk(data, caller) {
          expect(data?.UpdateTableStatusWithLock).toEqual({
            lock_result: true,
            current_status: 'editing',
          });
          expect(await registryRow('currencies')).toMatchObject({
            status: 'editing',
            editor: caller.principal?.name,
          });
        },
      },
    ),
  forceRelease: async () => {
    await acquireByLegacyMutation(bob, 'currencies');
    return sending(
      forceReleaseMutation,
      { table: 'currencies', reason: 'access matrix' },
      {
        observe: () => readRegistry(database.prisma),
        async expectOk(data) {
          expect(data?.forceRelease).toEqual({
            name: 'currencies',
            status: 'normal',
            editor: null,
          });
          expect(await registryRow('currencies')).toMatchObject({ status: 'normal', editor: null });
        },
      },
    );
  },
  syncTableRegistry: async () => {
    // A new master table gives the sync something to do, so a refusal shows as its absence.
    const table = `matrix_sync_${++counter}`;
    await database.prisma.$executeRawUnsafe(`CREATE TABLE master.${table} (id int PRIMARY KEY)`);
    return sending(
      syncTableRegistryMutation,
      {},
      {
        observe: () => registryRow(table),
        async expectOk(data) {
          // Tables made for refused cells before this one are picked up too.
          expect(data?.syncTableRegistry).toEqual({
            added: expect.arrayContaining([table]),
            removed: [],
          });
          expect(await registryRow(table)).toMatchObject({ status: 'normal' });
        },
      },
    );
  },
  createUser: async () => {
    const username = unique('matrix-user');
    const stored = () => database.prisma.user.findUnique({ where: { username } });
    return sending(
      createUserMutation,
      { username, password: 'matrix-password', role: 'viewer' },
      {
        observe: stored,
        async expectOk(data) {
          expect(data?.createUser).toEqual({ username, role: 'viewer', disabled: false });
          expect(await stored()).toMatchObject({ username, role: 'viewer' });
        },
      },
    );
  },
  updateUser: async () => {
    const username = unique('matrix-target');
    await createUser(
      database.prisma,
      { username, password: 'matrix-password', role: 'viewer' },
      TEST_AUDIT,
    );
    const stored = () =>
      database.prisma.user.findUnique({ where: { username }, select: { role: true } });
    return sending(
      updateUserRoleMutation,
      { username, role: 'editor' },
      {
        observe: stored,
        async expectOk(data) {
          expect(data?.updateUser).toEqual({ role: 'editor' });
          expect(await stored()).toEqual({ role: 'editor' });
        },
      },
    );
  },
  createApiKey: async () => {
    const name = unique('matrix-key');
    return sending(
      createApiKeyMutation,
      { name, role: 'viewer' },
      {
        observe: () => apiKeyRow(name),
        async expectOk(data) {
          expect(data?.createApiKey).toEqual({
            secret: expect.stringMatching(/^tlk_/),
            apiKey: { name, role: 'viewer' },
          });
          expect(await apiKeyRow(name)).toEqual({ role: 'viewer', revokedAt: null });
        },
      },
    );
  },
  revokeApiKey: async () => {
    const name = unique('matrix-throwaway');
    await createApiKey(database.prisma, { name, role: 'viewer' }, TEST_AUDIT);
    return sending(
      revokeApiKeyMutation,
      { name },
      {
        observe: () => apiKeyRow(name),
        async expectOk(data) {
          expect(data?.revokeApiKey).toEqual({ name, revokedAt: expect.any(String) });
          expect((await apiKeyRow(name))?.revokedAt).toBeInstanceOf(Date);
        },
      },
    );
  },
  introspection: async () =>
    sending(
      queryTypeNameQuery,
      {},
      {
        expectOk(data) {
          expect(data?.__schema).toEqual({ queryType: { name: 'Query' } });
        },
      },
    ),
};

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  bob = await api.loginAs('bob');
  for (const caller of CALLERS) clients.set(caller.label, await caller.connect(api));
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

const cells = Object.entries(MATRIX).flatMap(([operation, outcomes]) =>
  CALLERS.map((caller, column) => {
    const expected = outcomes[column] as Outcome;
    return [
      `${caller.label} → ${operation}: ${expected}`,
      { caller, operation, expected },
    ] as const;
  }),
);

describe('who may do what', () => {
  it('the matrix covers every operation listed and every caller', () => {
    expect(Object.keys(MATRIX).sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const outcomes of Object.values(MATRIX)) expect(outcomes).toHaveLength(CALLERS.length);
  });

  it('FIELD_ACCESS names every root field of the schema, and no other', () => {
    const roots = {
      Query: schema.getQueryType(),
      Mutation: schema.getMutationType(),
      Subscription: schema.getSubscriptionType(),
    };
    for (const type of Object.keys(FIELD_ACCESS) as RootType[]) {
      expect(Object.keys(FIELD_ACCESS[type]).sort(), type).toEqual(
        Object.keys(roots[type]?.getFields() ?? {}).sort(),
      );
    }
  });

  it('each row of the matrix is what FIELD_ACCESS says of its field', () => {
    const fromMap = (field: string): Outcome[] => {
      const requirement = fieldRequirement('Query', field) ?? fieldRequirement('Mutation', field);
      if (!requirement) throw new Error(`${field} is not in FIELD_ACCESS`);
      return CALLERS.map(({ principal }) => {
        if (requirement === 'anyone' || requirement === 'anyoneWhateverTheCredentials') return o;
        if (!principal) return U;
        return roleAtLeast(principal.role, requirement) ? o : F;
      });
    };
    for (const [operation, outcomes] of Object.entries(MATRIX)) {
      if (operation === 'introspection') continue;
      expect(fromMap(operation), operation).toEqual(outcomes);
    }
  });

  it.each(cells)('%s', async (_name, { caller, operation, expected }) => {
    const client = clients.get(caller.label);
    const prepare = OPERATIONS[operation];
    if (!client || !prepare) throw new Error(`no client or operation for ${caller.label}`);
    const attempt = await prepare();
    const before = await attempt.observe?.();
    const response = await attempt.send(client);
    if (expected === 'ok') {
      expect(response.errors).toBeUndefined();
      await attempt.expectOk(response.data, caller);
    } else {
      expect(response.errors?.[0]?.extensions?.code).toBe(expected);
      expect(response.data?.[operation] ?? null).toBeNull();
      expect(await attempt.observe?.()).toEqual(before);
    }
  });
});
