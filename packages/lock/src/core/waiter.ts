/** One in the line of those waiting for tables, as others see them. */
export interface Waiter {
  /** The place in line: lower is earlier. */
  id: string;
  /** The tables to edit together, sorted. */
  tables: string[];
  /** Their FK targets outside `tables`, which they will lock. */
  references: string[];
  /** A row scope's waiter: the values of its one table it waits for; null: whole tables. */
  rows: string[] | null;
  editor: string;
  since: Date;
  /** A person's turn came: the tables are held for them until then. */
  reservedUntil: Date | null;
}
