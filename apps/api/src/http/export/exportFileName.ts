import { DomainError } from '@tablelock/errors';

/** An IANA time zone name this runtime knows, else BAD_USER_INPUT. */
export function checkedTimeZone(timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en', { timeZone }).resolvedOptions().timeZone;
  } catch {
    throw new DomainError(
      'BAD_USER_INPUT',
      `${timeZone} is no time zone: give an IANA name such as Asia/Tokyo.`,
    );
  }
}

/**
 * `products_2026-11-29.csv`: the table and the day of the export in the caller's time zone, so
 * that exports of one table on different days do not overwrite each other in a downloads folder.
 */
export function exportFileName(
  table: string,
  extension: string,
  timeZone: string,
  at: Date,
): string {
  const parts = new Intl.DateTimeFormat('en', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${table}_${part('year')}-${part('month')}-${part('day')}.${extension}`;
}
