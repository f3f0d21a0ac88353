import type { TFunction } from 'i18next';
import type { SaveError } from './PendingChanges';

const KNOWN_CODES = [
  'ROW_CONFLICT',
  'INVALID_VALUE',
  'NOT_NULL',
  'UNIQUE',
  'FOREIGN_KEY',
  'CHECK',
] as const;
type KnownCode = (typeof KNOWN_CODES)[number];

function isKnownCode(code: string): code is KnownCode {
  return (KNOWN_CODES as readonly string[]).includes(code);
}

/** What went wrong with a row, in the user's language, with the database's detail after it. */
export function saveErrorText(error: SaveError, t: TFunction): string {
  const label = isKnownCode(error.code) ? t(`saveErrors.${error.code}`) : error.code;
  return `${label}: ${error.message}`;
}
