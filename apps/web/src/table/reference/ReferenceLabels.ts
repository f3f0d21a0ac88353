/** A foreign-key value's label as the API gives it: the referenced row's label column. */
export interface ReferenceLabel {
  key: string;
  label?: string | null;
}

/**
 * The labels of the foreign-key values the grid has seen, by column and key: filled by each
 * page of rows and by each value picked in the value help, read by the cells.
 */
export class ReferenceLabels {
  readonly #byColumn = new Map<string, Map<string, string | null>>();

  remember(column: string, labels: readonly ReferenceLabel[]): void {
    let known = this.#byColumn.get(column);
    if (!known) {
      known = new Map();
      this.#byColumn.set(column, known);
    }
    for (const { key, label } of labels) known.set(key, label ?? null);
  }

  /** Whether the label of `key` is known (it may be known to be null). */
  isKnown(column: string, key: string): boolean {
    return this.#byColumn.get(column)?.has(key) ?? false;
  }

  labelOf(column: string, key: string | null | undefined): string | null {
    if (key == null) return null;
    return this.#byColumn.get(column)?.get(key) ?? null;
  }
}
