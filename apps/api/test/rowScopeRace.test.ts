import { performance } from 'node:perf_hooks';
import { setTimeout as pause } from 'node:timers/promises';
import { createApiKey } from '@tablelock/identity';
import { type InvariantRow, lockInvariantViolations } from '@tablelock/lock';
import {
  type ApiProcess,
  createOtherDatabaseLogin,
  createTestDatabase,
  MASTER_SCHEMA,
  startApiProcess,
  stopApiProcess,
  TEST_AUDIT,
  type TestDatabase,
  twoPorts,
} from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { callWithKey } from './support/callWithKey';
import {
  type ObservedHold,
  overlappingHolds,
  type SnapshotScope,
  snapshotOverlaps,
} from './support/rowScopeOverlaps';
import type { GraphQLResponse } from './support/testApi';

// Issue 41's race: editors through two API processes take random row scopes of products (and
// now and then the whole table) while an admin force-releases scopes under them. No snapshot of
// the registry and no two clients' timelines may show two holds of one value at once, a holder's
// saves stay inside its scope, and a token that no longer holds is refused.

/** As long as the issue says the race runs. */
const RACE_MS = 60_000;
const EDITORS = 16;
const VALUES = 10;
/** About one round in this many asks for the whole table instead of a scope. */
const WHOLE_TABLE_ONE_IN = 8;
/**
 * A whole-table edit without waiting seldom finds all 16 editors between scopes (the line that
 * would serve it behind scopes, outcome 5, is not built yet): this often, one whole-table taker
 * has the others start no new round until it had its turn. Rounds in flight still race it.
 */
const MAKE_WAY_EVERY_MS = 10_000;
const MAKE_WAY_RETRY_MS = 100;
const FORCE_RELEASE_EVERY_MS = 1_000;
/** The snapshot poller's pace: often enough to catch a short overlap, not a busy loop. */
const SNAPSHOT_EVERY_MS = 20;

const takeProducts = graphql(`
  mutation RaceTakeProducts($rows: [String!], $leaseSeconds: Int) {
    acquireTableLock(table: "products", rows: $rows, leaseSeconds: $leaseSeconds) {
      token
      rows
    }
  }
`);

const releaseProducts = graphql(`
  mutation RaceReleaseProducts($token: String!) {
    releaseTableLock(table: "products", token: $token) {
      name
    }
  }
`);

const saveProducts = graphql(`
  mutation RaceSaveProducts($token: String!, $changes: RowChanges!) {
    saveRows(table: "products", token: $token, changes: $changes) {
      saved
      rowErrors {
        code
        message
      }
    }
  }
`);

const productsScopes = graphql(`
  query RaceProductsScopes {
    table(name: "products") {
      rowLocks {
        token
      }
    }
  }
`);

const forceReleaseScope = graphql(`
  mutation RaceForceReleaseScope($rowLock: String!) {
    forceRelease(table: "products", reason: "race test", rowLock: $rowLock) {
      name
    }
  }
`);

const takeOverScope = graphql(`
  mutation RaceTakeOverScope($rowLock: String!) {
    takeOverTableLock(table: "products", reason: "race take-over", rowLock: $rowLock) {
      token
      rows
    }
  }
`);

const scopeProductsByCategory = graphql(`
  mutation RaceScopeProductsByCategory {
    setTablePolicy(table: "products", policy: { rowLockColumn: "category_id" }) {
      table
    }
  }
`);

/**
 * The registry in one statement (one snapshot): each table's row and its live row scopes (lease
 * not run out), for the invariants and the overlap checks.
 */
const REGISTRY_SNAPSHOT = `
  SELECT tl.table_name AS "tableName", tl.status::text AS status, tl.editor,
         tl.locked_by AS "lockedBy", tl."references",
         tl.status = 'editing' AND tl.fencing_token IS NOT NULL AS "wholeHeld",
         coalesce((SELECT json_agg(json_build_object('editor', r.editor, 'rows', r.rows,
                                                     'token', r.fencing_token::text)
                                   ORDER BY r.fencing_token)
                   FROM tablelock.row_lock AS r
                   WHERE r.table_name = tl.table_name
                     AND (r.lease_expires_at IS NULL OR r.lease_expires_at > now())),
                  '[]'::json) AS "rowScopes"
  FROM tablelock.table_lock AS tl`;

type SnapshotRow = InvariantRow & { wholeHeld: boolean; rowScopes: SnapshotScope[] };

/** A category of the race: its value, the product its holders change, one nobody may. */
interface Category {
  value: string;
  heldProduct: string;
  untouchedProduct: string;
}

interface Editor {
  name: string;
  secret: string;
  api: ApiProcess;
}

interface SaveAnswer {
  token: string;
  sentAt: number;
  outcome: 'saved' | 'outOfScope' | 'lost';
}

/** What the race's loops saw, checked after it. */
interface RaceRecord {
  holds: ObservedHold[];
  saves: SaveAnswer[];
  /** Scopes the admin ended: when the force release was sent, and when its answer came. */
  forced: Map<string, { sentAt: number; answeredAt: number }>;
  /** Tokens whose holder's release answered LOCK_LOST. */
  lostAtRelease: Set<string>;
  refusals: number;
  /** The whole-table taker the others make way for, and when the next one may ask. */
  makingWayFor: string | null;
  nextMakeWayAt: number;
  forceReleasesTooLate: number;
  /** Releases and force releases that found the registry rows busy past their wait. */
  busy: number;
  snapshots: number;
  snapshotOverlaps: string[];
  invariantViolations: string[];
  /** Anything a loop got that no answer may be; the race stops at the first. */
  problems: string[];
}

let database: TestDatabase;
const processes: ApiProcess[] = [];
let apis: [ApiProcess, ApiProcess];
let editors: Editor[];
let adminSecret: string;
let categories: Category[];
/** The test's own reads of products (versions, rows), apart from Prisma's pool and its waits. */
let reader: pg.Pool;

/** An answer no race may get, with what the API process logged about its requests. */
function explained(api: ApiProcess, answer: GraphQLResponse<unknown>): string {
  const text = JSON.stringify(answer);
  const requestIds = [...text.matchAll(/"requestId":"([^"]+)"/g)].map(([, id]) => id ?? '');
  const logged = api.output
    .join('')
    .split('\n')
    .filter((line) => requestIds.some((id) => line.includes(id)));
  return `${text} (${api.name} logged: ${logged.join('\n') || 'nothing'})`;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** A random scope of one to three of the race's values. */
function randomValues(): string[] {
  const wanted = 1 + Math.floor(Math.random() * 3);
  const values = categories.map((category) => category.value);
  const chosen: string[] = [];
  while (chosen.length < wanted) {
    const value = pick(values);
    if (!chosen.includes(value)) chosen.push(value);
  }
  return chosen;
}

const categoryOf = (value: string) => categories.find((category) => category.value === value);

async function productRow(id: string): Promise<{ version: string; row: string }> {
  const { rows } = await reader.query<{ version: string; row: string }>(
    `SELECT xmin::text AS version, row(p.*)::text AS row FROM ${MASTER_SCHEMA}.products AS p
     WHERE id = $1`,
    [id],
  );
  const [product] = rows;
  if (!product) throw new Error(`no product ${id}`);
  return product;
}

/** Renames product `id` under `token`: the answer, as one of the outcomes a race may see. */
async function rename(
  editor: Editor,
  token: string,
  id: string,
  name: string,
  race: RaceRecord,
): Promise<SaveAnswer['outcome'] | null> {
  const { version } = await productRow(id);
  const sentAt = performance.now();
  const answer = await callWithKey(editor.api, editor.secret, saveProducts, {
    token,
    changes: { updates: [{ key: { id }, version, values: { name } }] },
  });
  const saved = answer.data?.saveRows;
  let outcome: SaveAnswer['outcome'] | null = null;
  if (answer.errors?.[0]?.extensions?.code === 'LOCK_LOST') outcome = 'lost';
  else if (saved?.saved === true) outcome = 'saved';
  else if (
    saved?.saved === false &&
    saved.rowErrors.length > 0 &&
    saved.rowErrors.every((error) => error.code === 'OUT_OF_SCOPE')
  ) {
    outcome = 'outOfScope';
  }
  if (outcome === null) {
    race.problems.push(
      `${editor.name} renaming ${id} under ${token}: ${explained(editor.api, answer)}`,
    );
    return null;
  }
  race.saves.push({ token, sentAt, outcome });
  return outcome;
}

/**
 * Takes products (`asked`: null for the whole table) for `editor`: the grant, or null when
 * refused. One that others make way for asks again, paced, until granted or the race ends.
 */
async function take(
  editor: Editor,
  asked: string[] | null,
  othersMakeWay: boolean,
  until: number,
  race: RaceRecord,
): Promise<{ token: string; rows: string[] | null; arrived: number } | null> {
  for (;;) {
    const answer = await callWithKey(editor.api, editor.secret, takeProducts, {
      rows: asked,
      leaseSeconds: 600,
    });
    const arrived = performance.now();
    const grant = answer.data?.acquireTableLock;
    if (grant) return { token: grant.token, rows: grant.rows ?? null, arrived };
    if (answer.errors?.[0]?.extensions?.code !== 'LOCK_CONFLICT') {
      race.problems.push(`${editor.name} taking ${asked}: ${explained(editor.api, answer)}`);
      return null;
    }
    race.refusals += 1;
    if (!othersMakeWay || performance.now() >= until || race.problems.length > 0) return null;
    await pause(MAKE_WAY_RETRY_MS);
  }
}

/** One editor's rounds: take, save inside, try outside, release; until `until`. */
async function editorRounds(editor: Editor, until: number, race: RaceRecord): Promise<void> {
  for (let round = 0; performance.now() < until && race.problems.length === 0; round++) {
    while (race.makingWayFor !== null && performance.now() < until) {
      await pause(MAKE_WAY_RETRY_MS);
    }
    const whole = Math.random() < 1 / WHOLE_TABLE_ONE_IN;
    const othersMakeWay = whole && performance.now() >= race.nextMakeWayAt;
    if (othersMakeWay) {
      race.makingWayFor = editor.name;
      race.nextMakeWayAt = performance.now() + MAKE_WAY_EVERY_MS;
    }
    try {
      const asked = whole ? null : randomValues();
      const grant = await take(editor, asked, othersMakeWay, until, race);
      if (grant) await holdOneRound(editor, asked, grant, round, race);
    } finally {
      if (othersMakeWay) race.makingWayFor = null;
    }
  }
}

/** Saves inside and tries outside under `grant`, then releases it. */
async function holdOneRound(
  editor: Editor,
  asked: string[] | null,
  grant: { token: string; rows: string[] | null; arrived: number },
  round: number,
  race: RaceRecord,
): Promise<void> {
  const { rows } = grant;
  if (JSON.stringify(rows && [...rows].sort()) !== JSON.stringify(asked && [...asked].sort())) {
    race.problems.push(`${editor.name} asked for ${asked} and was granted ${rows}`);
  }
  const hold: ObservedHold = {
    holder: editor.name,
    token: grant.token,
    rows,
    from: grant.arrived,
    to: Number.POSITIVE_INFINITY,
  };
  race.holds.push(hold);

  const inside = categoryOf(pick(rows ?? categories.map((category) => category.value)));
  if (!inside) throw new Error('a value outside the race');
  await rename(editor, hold.token, inside.heldProduct, `${editor.name} round ${round}`, race);
  if (rows !== null) {
    const outside = pick(categories.filter((category) => !rows.includes(category.value)));
    const before = await productRow(outside.untouchedProduct);
    await rename(editor, hold.token, outside.untouchedProduct, `outside ${editor.name}`, race);
    const after = await productRow(outside.untouchedProduct);
    if (after.row !== before.row) {
      race.problems.push(`${editor.name} under ${rows} changed ${after.row} (was ${before.row})`);
    }
  }

  const released = await release(editor, hold, race);
  if (!released.errors) return;
  if (released.errors[0]?.extensions?.code !== 'LOCK_LOST') {
    race.problems.push(
      `${editor.name} releasing ${hold.token}: ${explained(editor.api, released)}`,
    );
    return;
  }
  race.lostAtRelease.add(hold.token);
  // Force-released: the stale token's next save must be refused.
  const stale = await rename(editor, hold.token, inside.heldProduct, 'stale', race);
  if (stale !== 'lost') race.problems.push(`stale token ${hold.token} answered ${stale}`);
}

/**
 * Releases `hold`, asking again (paced) while its table's registry rows are busy past the wait
 * (LOCK_CONFLICT): the hold surely lasts until the attempt that ends it is sent.
 */
async function release(editor: Editor, hold: ObservedHold, race: RaceRecord) {
  for (;;) {
    hold.to = performance.now();
    const released = await callWithKey(editor.api, editor.secret, releaseProducts, {
      token: hold.token,
    });
    if (released.errors?.[0]?.extensions?.code !== 'LOCK_CONFLICT') return released;
    race.busy += 1;
    await pause(MAKE_WAY_RETRY_MS);
  }
}

/** The admin: about every second, force-releases one live scope it reads through the API. */
async function adminRounds(until: number, race: RaceRecord): Promise<void> {
  while (performance.now() < until && race.problems.length === 0) {
    await pause(FORCE_RELEASE_EVERY_MS);
    const reading = pick(apis);
    const seen = await callWithKey(reading, adminSecret, productsScopes, {});
    const tokens = (seen.data?.table?.rowLocks ?? []).flatMap((lock) =>
      lock.token ? [lock.token] : [],
    );
    if (seen.errors) race.problems.push(`admin reading scopes: ${explained(reading, seen)}`);
    if (tokens.length === 0) continue;
    const token = pick(tokens);
    const sentAt = performance.now();
    const releasing = pick(apis);
    const answer = await callWithKey(releasing, adminSecret, forceReleaseScope, {
      rowLock: token,
    });
    if (!answer.errors) race.forced.set(token, { sentAt, answeredAt: performance.now() });
    // Its holder released it between the read and the force release.
    else if (answer.errors[0]?.extensions?.code === 'INVALID_TRANSITION') {
      race.forceReleasesTooLate += 1;
    } else if (answer.errors[0]?.extensions?.code === 'LOCK_CONFLICT') {
      race.busy += 1;
    } else race.problems.push(`admin force-releasing ${token}: ${explained(releasing, answer)}`);
  }
}

async function readSnapshot(client: pg.Client | pg.Pool): Promise<SnapshotRow[]> {
  return (await client.query<SnapshotRow>(REGISTRY_SNAPSHOT)).rows;
}

/** Checks snapshots of the registry on a connection of its own until `until`. */
async function snapshotRounds(until: number, race: RaceRecord): Promise<void> {
  const watcher = new pg.Client({ connectionString: database.url });
  await watcher.connect();
  try {
    while (performance.now() < until && race.problems.length === 0) {
      const registry = await readSnapshot(watcher);
      race.snapshots += 1;
      const products = registry.find((row) => row.tableName === 'products');
      race.snapshotOverlaps.push(
        ...snapshotOverlaps(
          products?.rowScopes ?? [],
          products?.wholeHeld ? (products.editor ?? '?') : null,
        ),
      );
      race.invariantViolations.push(
        ...lockInvariantViolations(new Map(registry.map((row) => [row.tableName, row]))),
      );
      await pause(SNAPSHOT_EVERY_MS);
    }
  } finally {
    await watcher.end();
  }
}

async function newKey(name: string, role: 'editor' | 'admin'): Promise<string> {
  return (await createApiKey(database.prisma, { name, role }, TEST_AUDIT)).secret;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const [portA, portB] = await twoPorts();
  apis = await Promise.all([
    startApiProcess('A', database.url, portA, processes),
    startApiProcess('B', database.url, portB, processes),
  ]);
  reader = new pg.Pool({ connectionString: database.url, max: 4 });
  // One after another: many key transactions at once can outwait Prisma's wait for a connection.
  editors = [];
  for (let i = 0; i < EDITORS; i++) {
    const name = `racer-${i}`;
    editors.push({
      name: `key:${name}`,
      secret: await newKey(name, 'editor'),
      api: i % 2 === 0 ? apis[0] : apis[1],
    });
  }
  adminSecret = await newKey('race-admin', 'admin');
  const scoped = await callWithKey(apis[0], adminSecret, scopeProductsByCategory, {});
  expect(scoped.errors).toBeUndefined();
  // Categories with two products at least: one their holders rename, one nobody may.
  const { rows } = await reader.query<{ value: string; products: string[] }>(
    `SELECT category_id::text AS value, (array_agg(id::text ORDER BY id))[1:2] AS products
     FROM ${MASTER_SCHEMA}.products GROUP BY category_id HAVING count(*) >= 2
     ORDER BY category_id LIMIT ${VALUES}`,
  );
  categories = rows.map(({ value, products: [heldProduct = '', untouchedProduct = ''] }) => ({
    value,
    heldProduct,
    untouchedProduct,
  }));
  expect(categories).toHaveLength(VALUES);
}, 120_000);

afterAll(async () => {
  await reader?.end();
  await Promise.all(processes.map(stopApiProcess));
  await database?.close();
});

describe('row scopes across two API processes (issue 41)', () => {
  it(
    `never lets two holds of one value overlap: ${EDITORS} editors, ${VALUES} values, ${RACE_MS / 1000} s, an admin force-releasing`,
    async () => {
      const race: RaceRecord = {
        holds: [],
        saves: [],
        forced: new Map(),
        lostAtRelease: new Set(),
        refusals: 0,
        makingWayFor: null,
        nextMakeWayAt: performance.now() + MAKE_WAY_EVERY_MS / 2,
        forceReleasesTooLate: 0,
        busy: 0,
        snapshots: 0,
        snapshotOverlaps: [],
        invariantViolations: [],
        problems: [],
      };
      const until = performance.now() + RACE_MS;
      await Promise.all([
        ...editors.map((editor) => editorRounds(editor, until, race)),
        adminRounds(until, race),
        snapshotRounds(until, race),
      ]);

      // A force-released holder surely held its scope until the admin sent the force release.
      for (const hold of race.holds) {
        const forced = race.forced.get(hold.token);
        if (forced) hold.to = Math.min(hold.to, forced.sentAt);
      }
      // All at once, so that a failure shows what each view of the race saw (the first few).
      expect({
        problems: race.problems.slice(0, 5),
        snapshotOverlaps: race.snapshotOverlaps.slice(0, 5),
        invariantViolations: race.invariantViolations.slice(0, 5),
        timelineOverlaps: overlappingHolds(race.holds).slice(0, 5),
      }).toEqual({
        problems: [],
        snapshotOverlaps: [],
        invariantViolations: [],
        timelineOverlaps: [],
      });
      // A token is lost only by a force release, and its holder hears of it; once the admin has
      // heard it done, no save under it goes through.
      expect([...race.lostAtRelease].sort()).toEqual([...race.forced.keys()].sort());
      const lostWithoutForce = race.saves.filter(
        (save) => save.outcome === 'lost' && !race.forced.has(save.token),
      );
      expect(lostWithoutForce).toEqual([]);
      const savedAfterForce = race.saves.filter((save) => {
        const forced = race.forced.get(save.token);
        return save.outcome !== 'lost' && forced !== undefined && save.sentAt > forced.answeredAt;
      });
      expect(savedAfterForce).toEqual([]);
      const { rows: leaked } = await reader.query(
        `SELECT id FROM ${MASTER_SCHEMA}.products WHERE name LIKE 'outside %'`,
      );
      expect(leaked).toEqual([]);

      const count = (outcome: SaveAnswer['outcome']) =>
        race.saves.filter((save) => save.outcome === outcome).length;
      const counts = {
        grants: race.holds.length,
        wholeTableGrants: race.holds.filter((hold) => hold.rows === null).length,
        refusals: race.refusals,
        forceReleases: race.forced.size,
        forceReleasesTooLate: race.forceReleasesTooLate,
        busy: race.busy,
        savesInside: count('saved'),
        savesRefusedOutOfScope: count('outOfScope'),
        savesRefusedLockLost: count('lost'),
        snapshots: race.snapshots,
      };
      console.info('row scope race:', JSON.stringify(counts));
      // Not vacuous: holds, contention, force releases, saves both ways, and their refusals. The
      // floors are what the busiest full run leaves room for (95 grants in one; 526 on a quiet
      // machine): how many rounds 60 s holds is the machine's, not the product's.
      expect(counts.grants).toBeGreaterThan(20);
      expect(counts.wholeTableGrants).toBeGreaterThan(0);
      expect(counts.refusals).toBeGreaterThan(0);
      expect(counts.forceReleases).toBeGreaterThan(0);
      expect(counts.savesInside).toBeGreaterThan(20);
      expect(counts.savesRefusedOutOfScope).toBeGreaterThan(20);
      expect(counts.savesRefusedLockLost).toBeGreaterThanOrEqual(counts.forceReleases);
      expect(counts.snapshots).toBeGreaterThan(100);

      // Everyone released: nothing is left held.
      const after = await readSnapshot(reader);
      expect(after.filter((row) => row.status !== 'normal' || row.rowScopes.length > 0)).toEqual(
        [],
      );
      expect(lockInvariantViolations(new Map(after.map((row) => [row.tableName, row])))).toEqual(
        [],
      );
    },
    RACE_MS + 120_000,
  );

  /** A scope of the first category taken by the first editor through process A. */
  async function scopeThroughA() {
    const [editorOnA] = editors as [Editor];
    const [category] = categories as [Category];
    const taken = await callWithKey(apis[0], editorOnA.secret, takeProducts, {
      rows: [category.value],
      leaseSeconds: 60,
    });
    const token = taken.data?.acquireTableLock.token;
    if (!token) throw new Error(`no grant: ${JSON.stringify(taken)}`);
    return { editorOnA, category, token };
  }

  /** Another database login's use_lock with `token` is refused: TL001. */
  async function expectUseLockRefused(token: string) {
    const login = await createOtherDatabaseLogin(database.prisma, database.url, MASTER_SCHEMA);
    const etl = new pg.Client({ connectionString: login.url, application_name: 'nightly-etl' });
    await etl.connect();
    try {
      await expect(
        etl.query('SELECT tablelock.use_lock($1, $2)', ['products', token]),
      ).rejects.toMatchObject({ code: 'TL001' });
    } finally {
      await etl.end();
    }
  }

  it("refuses a scope token taken over through the other process: LOCK_LOST, and TL001 to another login's use_lock", async () => {
    const { editorOnA, category, token } = await scopeThroughA();
    const over = await callWithKey(apis[1], adminSecret, takeOverScope, { rowLock: token });
    expect(over.data?.takeOverTableLock.rows).toEqual([category.value]);

    const { version } = await productRow(category.heldProduct);
    const late = await callWithKey(apis[0], editorOnA.secret, saveProducts, {
      token,
      changes: {
        updates: [{ key: { id: category.heldProduct }, version, values: { name: 'late' } }],
      },
    });
    expect(late.errors?.[0]?.extensions?.code).toBe('LOCK_LOST');
    expect(late.errors?.[0]?.message).toContain('took over products');

    await expectUseLockRefused(token);
    await callWithKey(apis[1], adminSecret, releaseProducts, {
      token: String(over.data?.takeOverTableLock.token),
    });
  });

  it("refuses a scope token whose lease ran out: LOCK_LOST through the other process, TL001 to another login's use_lock", async () => {
    const { editorOnA, category, token } = await scopeThroughA();
    await database.prisma.rowLock.update({
      where: { fencingToken: BigInt(token) },
      data: { leaseExpiresAt: new Date(Date.now() - 1_000) },
    });

    const { version } = await productRow(category.heldProduct);
    const late = await callWithKey(apis[1], editorOnA.secret, saveProducts, {
      token,
      changes: {
        updates: [{ key: { id: category.heldProduct }, version, values: { name: 'late' } }],
      },
    });
    expect(late.errors?.[0]?.extensions?.code).toBe('LOCK_LOST');

    await expectUseLockRefused(token);
  });
});
