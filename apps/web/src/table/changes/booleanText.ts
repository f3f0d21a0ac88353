/** Postgres writes booleans as `true`/`false` (or `t`/`f` in its short text form). */
export function parseBooleanText(value: string | null | undefined): boolean | null {
  if (value === 'true' || value === 't') return true;
  if (value === 'false' || value === 'f') return false;
  return null;
}
