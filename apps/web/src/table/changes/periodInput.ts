// A hyphen separates days only with blanks around it (or at an open end): 2026-01-01 - 2026-03-31.
const DAYS = /^(\d{4}-\d{2}-\d{2})?\s*(?:[–—~〜]|(?<=\s|^)-(?=\s|$))\s*(\d{4}-\d{2}-\d{2})?$/;

/**
 * A period typed as the grid shows it, first and last day (`2026-01-01 – 2026-03-31`, either
 * end may be left open), as Postgres range text: `[2026-01-01,2026-04-01)`, the end being the
 * day after the last. Undefined for any other text (Postgres range syntax is stored as typed).
 */
export function periodFromDays(text: string): string | undefined {
  const match = DAYS.exec(text);
  if (!match || (match[1] === undefined && match[2] === undefined)) return undefined;
  const [, first = '', last] = match;
  let end = '';
  if (last !== undefined) {
    const dayAfter = new Date(`${last}T00:00:00Z`);
    if (Number.isNaN(dayAfter.getTime())) return undefined;
    dayAfter.setUTCDate(dayAfter.getUTCDate() + 1);
    end = dayAfter.toISOString().slice(0, 10);
  }
  return `[${first},${end})`;
}
