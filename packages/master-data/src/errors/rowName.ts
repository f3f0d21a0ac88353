import pluralize from 'pluralize';

/** A row as people name it: `product 1` for the row of `products` with key 1. */
export const rowName = (tableName: string, key: string) =>
  `${pluralize.singular(tableName)} ${key}`;

/** `a currency`, `an order`: one row of a table, named by what it holds. */
export function oneOf(tableName: string): string {
  const noun = pluralize.singular(tableName);
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** `3 price_list_items`, `1 price_list_item`. */
export const countOf = (tableName: string, count: number) =>
  `${count} ${pluralize(tableName, count)}`;
