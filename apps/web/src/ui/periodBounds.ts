/** A period's first and last day (or first and last value), as text; null: unbounded. */
export interface PeriodBounds {
  from: string | null;
  to: string | null;
}

const RANGE = /^([[(])("(?:[^"\\]|\\.)*"|[^,]*),("(?:[^"\\]|\\.)*"|[^,]*)([\])])$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const unquoted = (bound: string) => bound.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1');

/**
 * The bounds of a period in Postgres range text, as people read them: the end of
 * `[2026-01-01,2026-04-01)` is exclusive, so its last day is 2026-03-31. Undefined for text that
 * is no range (a typo not yet fixed, or `empty`). The API words its sentences the same way
 * (packages/master-data/src/errors/periodText.ts).
 */
export function periodBounds(range: string): PeriodBounds | undefined {
  const parts = RANGE.exec(range.trim());
  if (!parts) return undefined;
  const [, , lower = '', upper = '', upperBracket] = parts;
  const from = unquoted(lower);
  let to = unquoted(upper);
  if (upperBracket === ')' && DATE.test(to)) {
    const lastDay = new Date(`${to}T00:00:00Z`);
    lastDay.setUTCDate(lastDay.getUTCDate() - 1);
    to = lastDay.toISOString().slice(0, 10);
  }
  return { from: from === '' ? null : from, to: to === '' ? null : to };
}

/** A period as `2026-01-01 – 2026-03-31`, each bound shown by `show`; an open end left blank. */
export function periodText(range: string, show: (bound: string) => string = (bound) => bound) {
  const bounds = periodBounds(range);
  if (!bounds) return range;
  return `${bounds.from === null ? '' : show(bounds.from)} – ${bounds.to === null ? '' : show(bounds.to)}`.trim();
}
