import type { ImportRow } from './importReport';

/**
 * A row's errors as one text for errors.csv: each names its column once (a message that starts
 * with it is not prefixed again), and none is said twice.
 */
export function importErrorText(errors: ImportRow['errors']): string {
  const texts = errors.map(({ column, message }) =>
    column && !message.startsWith(column) ? `${column}: ${message}` : message,
  );
  return [...new Set(texts)].join('; ');
}
