import { rowErrorSentence, type SentenceLanguage } from '../errors/rowErrorSentences';
import type { ImportRow } from './importReport';

/**
 * A row's errors as one text for the errors file, in `language` and in the grid's words: each
 * names its column once (a sentence that names it is not prefixed again), and none is said
 * twice. An error kept without its facts (a dry run from before they were kept) keeps the API's
 * English message.
 */
export function importErrorText(errors: ImportRow['errors'], language: SentenceLanguage): string {
  const texts = errors.map(({ column, message, details }) => {
    const sentence = details && rowErrorSentence(details, language);
    const text = sentence?.text ?? message;
    const namesColumn = sentence ? sentence.namesColumn : column && message.startsWith(column);
    return column && !namesColumn ? `${column}: ${text}` : text;
  });
  return [...new Set(texts)].join('; ');
}
