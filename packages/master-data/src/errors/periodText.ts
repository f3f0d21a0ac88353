/**
 * A period in Postgres range text as people read it: `[2025-07-01,2026-01-01)` is
 * `2025-07-01 – 2025-12-31` (a date range's end is exclusive, so its last day is the day
 * before); an unbounded end is left blank. Other ranges keep their bounds as written.
 */
export function periodText(range: string): string {
  const parts = /^([[(])("(?:[^"\\]|\\.)*"|[^,]*),("(?:[^"\\]|\\.)*"|[^,]*)([\])])$/.exec(range);
  if (!parts) return range;
  const [, , lower = '', upper = '', upperBracket] = parts;
  const unquoted = (bound: string) => bound.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1');
  const from = unquoted(lower);
  let to = unquoted(upper);
  if (upperBracket === ')' && /^\d{4}-\d{2}-\d{2}$/.test(to)) {
    const lastDay = new Date(`${to}T00:00:00Z`);
    lastDay.setUTCDate(lastDay.getUTCDate() - 1);
    to = lastDay.toISOString().slice(0, 10);
  }
  return `${from} – ${to}`.trim();
}
