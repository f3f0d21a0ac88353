import { z } from 'zod';

/** A display name and description in one language; `language` null: for every language. */
export interface Caption {
  language: string | null;
  name: string | null;
  description: string | null;
}

const text = z.string().trim().min(1);
const localized = z.record(
  z.string().regex(/^[a-z]{2}(-[A-Za-z]{2})?$/),
  z.union([
    text.transform((name) => ({ name, description: undefined })),
    z.object({ name: text.optional(), description: text.optional() }),
  ]),
);

/**
 * What a COMMENT ON text says about a table or column. A JSON object by language gives display
 * names and descriptions: `{"en": {"name": "Price", "description": "…"}, "ja": {"name": "価格"}}`
 * (a bare string is the name). Any other comment is a description for every language.
 */
export function captionsOf(comment: string | null): Caption[] {
  if (comment === null || comment.trim() === '') return [];
  const parsed = comment.trim().startsWith('{') ? parseJson(comment) : null;
  const byLanguage = parsed === null ? null : localized.safeParse(parsed);
  if (!byLanguage?.success) return [{ language: null, name: null, description: comment.trim() }];
  return Object.entries(byLanguage.data).map(([language, { name, description }]) => ({
    language,
    name: name ?? null,
    description: description ?? null,
  }));
}

function parseJson(comment: string): unknown {
  try {
    return JSON.parse(comment);
  } catch {
    return null;
  }
}
