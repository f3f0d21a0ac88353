/** Quotes a Postgres identifier (table, schema, database name) for use in SQL text. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
