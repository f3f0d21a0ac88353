/** Matches any value but null or undefined. */
const ANY = '<any>';
/** Matches a fencing token: a string of digits. */
const TOKEN = '<token>';

/**
 * Where `actual` departs from `expected` (README, "Scenarios"): objects match partially, arrays
 * element by element and of the same length, `<any>` and `<token>` as placeholders, everything
 * else by equality. Null when it matches.
 */
export function mismatch(expected: unknown, actual: unknown, path = 'value'): string | null {
  if (expected === ANY) return actual == null ? `${path} is ${String(actual)}` : null;
  if (expected === TOKEN) {
    return typeof actual === 'string' && /^\d+$/.test(actual)
      ? null
      : `${path} is ${JSON.stringify(actual)}, not a token`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path} is ${JSON.stringify(actual)}, not a list`;
    if (actual.length !== expected.length) {
      return `${path} has ${actual.length} items, not ${expected.length}: ${JSON.stringify(actual)}`;
    }
    for (const [index, item] of expected.entries()) {
      const found = mismatch(item, actual[index], `${path}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return `${path} is ${JSON.stringify(actual)}, not an object`;
    }
    for (const [key, item] of Object.entries(expected)) {
      const found = mismatch(item, (actual as Record<string, unknown>)[key], `${path}.${key}`);
      if (found) return found;
    }
    return null;
  }
  return Object.is(expected, actual)
    ? null
    : `${path} is ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`;
}
