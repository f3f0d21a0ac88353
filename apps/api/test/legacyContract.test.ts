import { buildSchema, printType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { typeDefs } from '../src/graphql/schema';

// The legacy system's SDL, verbatim: its clients must work unchanged.
const LEGACY_SDL = `
enum TableStatus { normal editing locked }

input UpdateTableStatusWithLockInput {
  table_name: String!
  current_status: TableStatus!
  target_status: TableStatus!
  fk_table_name: [String!]
  fk_current_status: TableStatus
  fk_target_status: TableStatus
  editor: String
}
type FKResultTableStatus { table_name: String!  current_status: TableStatus! }
type ResultTableStatus {
  lock_result: Boolean!
  current_status: TableStatus
  fk_current_status: [FKResultTableStatus!]
}
type Mutation {
  UpdateTableStatusWithLock(input: UpdateTableStatusWithLockInput!): ResultTableStatus
}`;

describe('the legacy contract', () => {
  const legacy = buildSchema(LEGACY_SDL);
  // Built from the API's SDL files in this module's graphql realm, so printType can compare.
  const schema = buildSchema(typeDefs.join('\n'));

  it.each([
    'TableStatus',
    'UpdateTableStatusWithLockInput',
    'FKResultTableStatus',
    'ResultTableStatus',
  ])('type %s is exactly the legacy system’s', (name) => {
    const ours = schema.getType(name);
    const theirs = legacy.getType(name);
    expect(ours && theirs).toBeTruthy();
    if (!ours || !theirs) return;
    expect(printType(ours)).toBe(printType(theirs));
  });

  it('has the legacy mutation with the legacy signature', () => {
    const ours = schema.getMutationType()?.getFields().UpdateTableStatusWithLock;
    const theirs = legacy.getMutationType()?.getFields().UpdateTableStatusWithLock;
    expect(String(ours?.type)).toBe(String(theirs?.type));
    expect(ours?.args.map((arg) => `${arg.name}: ${arg.type}`)).toEqual(
      theirs?.args.map((arg) => `${arg.name}: ${arg.type}`),
    );
  });
});
