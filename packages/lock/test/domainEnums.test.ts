import {
  Role as StoredRole,
  TableStatus as StoredTableStatus,
  TakeOverRule as StoredTakeOverRule,
} from '@tablelock/db';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Role } from '../src/core/role';
import { TableStatus } from '../src/core/tableStatus';
import { TakeOverRule } from '../src/core/takeOverRule';

// The domain owns its enums; the data-access edge (sql/, rules/) passes the database's values
// through as they are. That holds only while both have the same values: `tsc` fails on the type
// checks below, and Vitest on the value checks, the day schema.prisma and the domain part.
describe('the domain enums and the database enums', () => {
  it('have the same values: TableStatus', () => {
    expectTypeOf<TableStatus>().toEqualTypeOf<StoredTableStatus>();
    expect(TableStatus).toEqual(StoredTableStatus);
  });

  it('have the same values: Role', () => {
    expectTypeOf<Role>().toEqualTypeOf<StoredRole>();
    expect(Role).toEqual(StoredRole);
  });

  it('have the same values: TakeOverRule', () => {
    expectTypeOf<TakeOverRule>().toEqualTypeOf<StoredTakeOverRule>();
    expect(TakeOverRule).toEqual(StoredTakeOverRule);
  });
});
