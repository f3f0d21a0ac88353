import { UsageError } from './UsageError';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `90`, `90s`, `1.5m`, `2h`, `500ms` in milliseconds; a bare number is seconds. */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) {
    throw new UsageError(`${flag} takes a duration such as 90s, 5m or 1h, not "${text}".`);
  }
  return Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1000);
}

/** A duration flag in whole seconds, as the API takes them (rounded up). */
export function parseSeconds(text: string, flag: string): number {
  return Math.ceil(parseDuration(text, flag) / 1000);
}
