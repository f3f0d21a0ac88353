import type { i18n } from 'i18next';

/**
 * A person's name as a sentence in `language` names them: in Japanese with さん after it, but not
 * after a name that is no person's (an API key `key:nightly-import`, the `system`), where an
 * honorific reads as a mistake.
 */
export function personName(name: string, language: string | undefined): string {
  if (language !== 'ja') return name;
  if (name.startsWith('key:') || name === 'system') return name;
  return `${name} さん`;
}

/** Lets messages write `{{editor, person}}` for a name as personName gives it. */
export function addPersonFormat(instance: i18n): void {
  instance.services.formatter?.add('person', (value, language) =>
    personName(String(value), language),
  );
}
