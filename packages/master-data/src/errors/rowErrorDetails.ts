/**
 * What broke, as facts rather than sentences, so that each client says it in its user's
 * language. Fields that do not apply to the kind are left out.
 */
export interface RowErrorDetails {
  kind: RowErrorKind;
  /** The column at fault (the first, when the rule has several). */
  column?: string;
  /** The value at fault, as text (several columns' values joined by ", "). */
  value?: string;
  /**
   * MISSING_REFERENCE: the referenced table; DUPLICATE, OVERLAPPING_PERIOD: this table; IN_USE:
   * the referencing table.
   */
  table?: string;
  /** MISSING_REFERENCE: the referenced column(s), joined by ", ". */
  targetColumn?: string;
  /**
   * DUPLICATE: the key of the row that has the value; IN_USE: the key of the row deleted;
   * OVERLAPPING_PERIOD: the values of the key's columns other than its period;
   * DUPLICATE_IN_FILE, DUPLICATE_KEY (imports): the file row that has it first.
   */
  row?: string;
  /** IN_USE: how many rows of `table` still point at the row. */
  count?: number;
  /** CHECK as a simple comparison: `>=`, `>`, `<=`, `<`, `=`, `<>` or `BETWEEN`. */
  comparison?: string;
  bound?: string;
  /** CHECK BETWEEN: the upper bound. */
  upperBound?: string;
  /** CHECK of any other form: the rule as Postgres writes it. */
  rule?: string;
  /** The violated constraint's name. */
  constraint?: string;
  /** OVERLAPPING_PERIOD: the period (Postgres range text) of the row the given one overlaps. */
  period?: string;
  /** OUT_OF_SCOPE: who holds the value in a row scope of their own; absent when nobody does. */
  holder?: string;
}

export type RowErrorKind =
  | 'CONFLICT'
  | 'INVALID_VALUE'
  | 'NOT_NULL'
  | 'DUPLICATE'
  | 'DUPLICATE_IN_FILE'
  | 'DUPLICATE_KEY'
  | 'MISSING_REFERENCE'
  | 'IN_USE'
  | 'CHECK'
  | 'OVERLAPPING_PERIOD'
  | 'OUT_OF_SCOPE';
