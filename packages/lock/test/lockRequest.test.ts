import { describe, expect, it } from 'vitest';
import { LockError, type LockErrorCode } from '../src/core/lockError';
import {
  type LegacyLockIntent,
  MAX_FK_TABLES,
  parseLockRequest,
  type TableStatusChange,
} from '../src/ops/lockRequest';

const startEditing: TableStatusChange = {
  tableName: 'products',
  currentStatus: 'normal',
  targetStatus: 'editing',
  editor: 'alice',
};
const finishEditing: TableStatusChange = {
  ...startEditing,
  currentStatus: 'editing',
  targetStatus: 'normal',
};
const withFks = (
  change: TableStatusChange,
  fkTableNames: string[] | null | undefined,
  fkCurrentStatus: TableStatusChange['fkCurrentStatus'],
  fkTargetStatus: TableStatusChange['fkTargetStatus'],
): TableStatusChange => ({ ...change, fkTableNames, fkCurrentStatus, fkTargetStatus });

/** A request a client could send but the types forbid (raw JSON, a GraphQL variable). */
const untyped = (change: Record<string, unknown>) => change as unknown as TableStatusChange;

const name = (length: number) => 't'.repeat(length);
const tables = (count: number) => Array.from({ length: count }, (_, i) => `fk_${i}`);

/** The LockError code `parseLockRequest` throws for `change`, failing if it does not throw one. */
function errorCodeOf(change: TableStatusChange): LockErrorCode {
  try {
    parseLockRequest(change);
  } catch (error) {
    if (error instanceof LockError) return error.code;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(change)}`);
}

describe('parseLockRequest: what a valid request means', () => {
  it.each<[string, TableStatusChange, LegacyLockIntent]>([
    [
      'normal → editing, no FK tables: an acquisition',
      startEditing,
      { kind: 'acquire', tableName: 'products', namedFkTables: [], editor: 'alice' },
    ],
    [
      'editing → normal: a release',
      finishEditing,
      { kind: 'release', tableName: 'products', namedFkTables: [], editor: 'alice' },
    ],
    [
      'FK tables normal → locked',
      withFks(startEditing, ['suppliers', 'categories'], 'normal', 'locked'),
      {
        kind: 'acquire',
        tableName: 'products',
        namedFkTables: ['suppliers', 'categories'],
        editor: 'alice',
      },
    ],
    [
      'FK tables locked → locked (joining their holders)',
      withFks(startEditing, ['currencies'], 'locked', 'locked'),
      { kind: 'acquire', tableName: 'products', namedFkTables: ['currencies'], editor: 'alice' },
    ],
    [
      'FK tables locked → normal on release',
      withFks(finishEditing, ['currencies'], 'locked', 'normal'),
      { kind: 'release', tableName: 'products', namedFkTables: ['currencies'], editor: 'alice' },
    ],
    [
      'repeated FK tables: each once, in the order first named',
      withFks(startEditing, ['suppliers', 'categories', 'suppliers'], 'normal', 'locked'),
      {
        kind: 'acquire',
        tableName: 'products',
        namedFkTables: ['suppliers', 'categories'],
        editor: 'alice',
      },
    ],
    [
      'FK statuses without FK tables (the server finds them)',
      withFks(startEditing, undefined, 'normal', 'locked'),
      { kind: 'acquire', tableName: 'products', namedFkTables: [], editor: 'alice' },
    ],
    [
      'FK tables and statuses all null',
      withFks(startEditing, null, null, null),
      { kind: 'acquire', tableName: 'products', namedFkTables: [], editor: 'alice' },
    ],
    [
      'an empty FK list without statuses',
      withFks(startEditing, [], undefined, undefined),
      { kind: 'acquire', tableName: 'products', namedFkTables: [], editor: 'alice' },
    ],
    [
      'the editor, trimmed',
      { ...startEditing, editor: '  alice\t' },
      { kind: 'acquire', tableName: 'products', namedFkTables: [], editor: 'alice' },
    ],
    [
      'names of 63 characters, the longest a Postgres identifier is',
      withFks({ ...startEditing, tableName: name(63) }, [`x${name(62)}`], 'normal', 'locked'),
      { kind: 'acquire', tableName: name(63), namedFkTables: [`x${name(62)}`], editor: 'alice' },
    ],
    [
      `${MAX_FK_TABLES} FK tables`,
      withFks(startEditing, tables(MAX_FK_TABLES), 'normal', 'locked'),
      {
        kind: 'acquire',
        tableName: 'products',
        namedFkTables: tables(MAX_FK_TABLES),
        editor: 'alice',
      },
    ],
  ])('%s', (_, change, intent) => {
    expect(parseLockRequest(change)).toEqual(intent);
  });
});

describe('parseLockRequest: what it refuses', () => {
  it.each<[string, TableStatusChange, LockErrorCode]>([
    ['an empty table name', { ...startEditing, tableName: '' }, 'BAD_USER_INPUT'],
    ['a table name over 63 characters', { ...startEditing, tableName: name(64) }, 'BAD_USER_INPUT'],
    [
      'a table name that is no string',
      untyped({ ...startEditing, tableName: 7 }),
      'BAD_USER_INPUT',
    ],
    ['a missing table name', untyped({ ...startEditing, tableName: undefined }), 'BAD_USER_INPUT'],
    [
      'a status outside the enum',
      untyped({ ...startEditing, targetStatus: 'frozen' }),
      'BAD_USER_INPUT',
    ],
    [
      'an FK status outside the enum',
      untyped({
        ...withFks(startEditing, ['currencies'], 'normal', 'locked'),
        fkTargetStatus: 'x',
      }),
      'BAD_USER_INPUT',
    ],
    [
      'a field the contract does not have',
      untyped({ ...startEditing, force: true }),
      'BAD_USER_INPUT',
    ],
    [
      'an FK table name over 63 characters',
      withFks(startEditing, [name(64)], 'normal', 'locked'),
      'BAD_USER_INPUT',
    ],
    ['an empty FK table name', withFks(startEditing, [''], 'normal', 'locked'), 'BAD_USER_INPUT'],
    [
      `more than ${MAX_FK_TABLES} FK tables`,
      withFks(startEditing, tables(MAX_FK_TABLES + 1), 'normal', 'locked'),
      'BAD_USER_INPUT',
    ],
    [
      'the table among its own FK tables',
      withFks(startEditing, ['currencies', 'products'], 'normal', 'locked'),
      'BAD_USER_INPUT',
    ],
    [
      'FK tables without FK statuses',
      withFks(startEditing, ['currencies'], undefined, undefined),
      'BAD_USER_INPUT',
    ],
    [
      'an FK current status alone',
      withFks(startEditing, ['currencies'], 'normal', undefined),
      'BAD_USER_INPUT',
    ],
    [
      'an FK target status alone',
      withFks(startEditing, undefined, null, 'locked'),
      'BAD_USER_INPUT',
    ],
    ['no editor', { ...startEditing, editor: undefined }, 'BAD_USER_INPUT'],
    ['a null editor', { ...startEditing, editor: null }, 'BAD_USER_INPUT'],
    ['a blank editor', { ...startEditing, editor: ' \t ' }, 'BAD_USER_INPUT'],
    ['an editor over 200 characters', { ...startEditing, editor: name(201) }, 'BAD_USER_INPUT'],
    ['normal → locked', { ...startEditing, targetStatus: 'locked' }, 'INVALID_TRANSITION'],
    ['normal → normal', { ...startEditing, targetStatus: 'normal' }, 'INVALID_TRANSITION'],
    ['editing → editing', { ...finishEditing, targetStatus: 'editing' }, 'INVALID_TRANSITION'],
    ['editing → locked', { ...finishEditing, targetStatus: 'locked' }, 'INVALID_TRANSITION'],
    ['locked → normal', { ...finishEditing, currentStatus: 'locked' }, 'INVALID_TRANSITION'],
    ['locked → editing', { ...startEditing, currentStatus: 'locked' }, 'INVALID_TRANSITION'],
    [
      'starting, FK tables locked → normal',
      withFks(startEditing, ['currencies'], 'locked', 'normal'),
      'INVALID_TRANSITION',
    ],
    [
      'starting, FK tables normal → normal',
      withFks(startEditing, ['currencies'], 'normal', 'normal'),
      'INVALID_TRANSITION',
    ],
    [
      'starting, FK tables editing → locked',
      withFks(startEditing, ['currencies'], 'editing', 'locked'),
      'INVALID_TRANSITION',
    ],
    [
      'starting, FK tables normal → editing',
      withFks(startEditing, ['currencies'], 'normal', 'editing'),
      'INVALID_TRANSITION',
    ],
    [
      'finishing, FK tables normal → locked',
      withFks(finishEditing, ['currencies'], 'normal', 'locked'),
      'INVALID_TRANSITION',
    ],
    [
      'finishing, FK tables locked → locked',
      withFks(finishEditing, ['currencies'], 'locked', 'locked'),
      'INVALID_TRANSITION',
    ],
    [
      'finishing, FK tables normal → normal',
      withFks(finishEditing, ['currencies'], 'normal', 'normal'),
      'INVALID_TRANSITION',
    ],
    // Malformed input is reported before what it would mean.
    [
      'a malformed request that is also an impossible transition',
      { ...startEditing, targetStatus: 'locked', tableName: '' },
      'BAD_USER_INPUT',
    ],
    [
      'an impossible transition without an editor',
      { ...startEditing, targetStatus: 'locked', editor: undefined },
      'INVALID_TRANSITION',
    ],
  ])('%s → %s', (_, change, code) => {
    expect(errorCodeOf(change)).toBe(code);
  });
});
