/** A display name and description in one language (null: every language), as the API sends them. */
export interface Caption {
  language?: string | null;
  name?: string | null;
  description?: string | null;
}

/** A table's or column's display name and description in `language`, from its captions. */
export function captionIn(
  captions: readonly Caption[] | undefined,
  language: string,
): { name: string | null; description: string | null } {
  const own = captions?.find((caption) => caption.language === language);
  const everyLanguage = captions?.find((caption) => caption.language == null);
  return {
    name: own?.name ?? everyLanguage?.name ?? null,
    description: own?.description ?? everyLanguage?.description ?? null,
  };
}
