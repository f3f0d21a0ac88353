/** A row key as one line, e.g. `id=3` or `warehouse_id=1, product_id=7`. */
export const keyText = (key: Record<string, string | null>) =>
  Object.entries(key)
    .map(([column, value]) => `${column}=${value ?? 'NULL'}`)
    .join(', ');
