/**
 * Thousands of master tables, each with two foreign keys, as real schemas have them: the
 * fixture of the "many tables" tests and of the bench. Table `i` is `many_<i>` (zero-padded,
 * so names sort as numbers do); it references the two tables before it, and the first two
 * reference the demo data's `categories` and `currencies`. No imports: the bench, the API tests
 * and the browser tests each run the statements on a connection of their own.
 */
export function manyTableName(i: number): string {
  return `many_${String(i).padStart(5, '0')}`;
}

// One transaction per batch: each CREATE takes locks until commit, and thousands at once
// would overflow Postgres's lock table (max_locks_per_transaction).
const TABLES_PER_BATCH = 250;

/** SQL scripts (several statements each) that create `count` tables in `schema`; run them in order. */
export function manyMasterTablesSql(schema: string, count: number): string[] {
  const parents = (i: number) => {
    if (i === 0) return ['categories', 'currencies'];
    if (i === 1) return [manyTableName(0), 'categories'];
    return [manyTableName(i - 2), manyTableName(i - 1)];
  };
  const keyOf: Record<string, string> = { categories: 'id', currencies: 'code' };
  const typeOf: Record<string, string> = { categories: 'integer', currencies: 'char(3)' };
  const create = (i: number) => {
    const [first, second] = parents(i).map((parent) => ({
      parent,
      key: keyOf[parent] ?? 'id',
      type: typeOf[parent] ?? 'integer',
    }));
    if (!first || !second) throw new Error('Every table has two parents.');
    return `CREATE TABLE ${schema}.${manyTableName(i)} (
      id integer PRIMARY KEY,
      first_id ${first.type} REFERENCES ${schema}.${first.parent} (${first.key}),
      second_id ${second.type} REFERENCES ${schema}.${second.parent} (${second.key}));`;
  };
  const batches: string[] = [];
  for (let start = 0; start < count; start += TABLES_PER_BATCH) {
    const end = Math.min(count, start + TABLES_PER_BATCH);
    const statements = Array.from({ length: end - start }, (_, k) => create(start + k));
    batches.push(`BEGIN;\n${statements.join('\n')}\nCOMMIT;`);
  }
  return batches;
}
