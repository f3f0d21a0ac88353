import { periodText } from './periodText';
import type { RowErrorDetails } from './rowErrorDetails';

/** The languages the web app speaks, and so the files written for its users. */
export const SENTENCE_LANGUAGES = ['en', 'ja'] as const;
export type SentenceLanguage = (typeof SENTENCE_LANGUAGES)[number];

/**
 * The web app's sentences for a refused row (its `rowErrors` messages, apps/web/src/i18n), for
 * the files the API writes for a person, such as an import's errors file: the grid and the file
 * say a problem in the same words. A test holds the two copies equal (the web app imports no
 * workspace package, so neither can import the other).
 */
export const ROW_ERROR_SENTENCES = {
  en: {
    conflict: 'Changed by someone else since you loaded it. Reload the row.',
    invalidValue: '"{{value}}" is not a valid {{column}}.',
    notNull: '{{column}} may not be empty. Enter a value.',
    duplicate: '{{value}} is already used by row {{row}} of {{table}}. Choose another value.',
    duplicateInFile: '{{value}} is also in row {{row}} of the file. Keep it in one row.',
    duplicateKey: 'Row {{row}} of the file has the same key. Keep one of them.',
    missingReference:
      '{{value}} is not in {{table}} ({{table}}.{{targetColumn}}). Choose a value that exists there.',
    inUse_one:
      'Row {{row}} is still used by {{count, number}} row of {{table}}. Change or delete it first.',
    inUse_other:
      'Row {{row}} is still used by {{count, number}} rows of {{table}}. Change or delete those first.',
    check: {
      atLeast: '{{column}} must be at least {{bound}}.',
      moreThan: '{{column}} must be more than {{bound}}.',
      atMost: '{{column}} must be at most {{bound}}.',
      lessThan: '{{column}} must be less than {{bound}}.',
      exactly: '{{column}} must be {{bound}}.',
      otherThan: '{{column}} may not be {{bound}}.',
      between: '{{column}} must be between {{bound}} and {{upperBound}}.',
      rule: 'The row breaks the rule {{rule}}.',
    },
    overlappingPeriod:
      '{{table}} already has a row for {{row}} in {{period}}. Choose a period that does not overlap it.',
    outOfScope:
      '{{column}} {{value}} is outside the rows you edit. Keep the row within your rows, or take rows of {{value}} too.',
    outOfScopeHeld:
      '{{column}} {{value}} is outside the rows you edit: {{holder}} edits those rows.',
  },
  ja: {
    conflict: '読み込み後に他のユーザーが変更しました。行を読み込み直してください。',
    invalidValue: '「{{value}}」は {{column}} の値として正しくありません。',
    notNull: '{{column}} は必須です。値を入力してください。',
    duplicate: '{{value}} は {{table}} の行 {{row}} で既に使われています。別の値にしてください。',
    duplicateInFile:
      '{{value}} はファイルの {{row}} 行目にもあります。ひとつの行だけにしてください。',
    duplicateKey: 'ファイルの {{row}} 行目に同じキーの行があります。どちらかひとつにしてください。',
    missingReference:
      '{{value}} は {{table}} にありません（{{table}}.{{targetColumn}}）。存在する値を選んでください。',
    inUse_other:
      '行 {{row}} は {{table}} の {{count, number}} 行からまだ参照されています。先にそれらを変更するか削除してください。',
    check: {
      atLeast: '{{column}} は {{bound}} 以上にしてください。',
      moreThan: '{{column}} は {{bound}} より大きくしてください。',
      atMost: '{{column}} は {{bound}} 以下にしてください。',
      lessThan: '{{column}} は {{bound}} 未満にしてください。',
      exactly: '{{column}} は {{bound}} にしてください。',
      otherThan: '{{column}} は {{bound}} 以外にしてください。',
      between: '{{column}} は {{bound}} 以上 {{upperBound}} 以下にしてください。',
      rule: '行が規則 {{rule}} に反しています。',
    },
    overlappingPeriod:
      '{{table}} には {{row}} の {{period}} の行が既にあります。重ならない期間にしてください。',
    outOfScope:
      '{{column}} {{value}} はあなたが編集中の行の範囲外です。範囲内の値にするか、{{value}} の行も編集範囲に加えてください。',
    outOfScopeHeld:
      '{{column}} {{value}} はあなたが編集中の行の範囲外です。{{holder}} さんがその行を編集中です。',
  },
} as const;

const CHECK_WORDS = {
  '>=': 'atLeast',
  '>': 'moreThan',
  '<=': 'atMost',
  '<': 'lessThan',
  '=': 'exactly',
  '<>': 'otherThan',
  BETWEEN: 'between',
} as const;

/** The language of `wanted` when the web app speaks it, else English. */
export function sentenceLanguage(wanted: string | null | undefined): SentenceLanguage {
  return SENTENCE_LANGUAGES.find((language) => language === wanted) ?? 'en';
}

/** A refused row's sentence, and whether it names its column (then no prefix is needed). */
export interface RowErrorSentence {
  text: string;
  namesColumn: boolean;
}

/** The template for the facts, as the web app picks it; undefined for facts it cannot word. */
function templateOf(details: RowErrorDetails, language: SentenceLanguage): string | undefined {
  const sentences = ROW_ERROR_SENTENCES[language];
  switch (details.kind) {
    case 'CONFLICT':
      return sentences.conflict;
    case 'INVALID_VALUE':
      return sentences.invalidValue;
    case 'NOT_NULL':
      return sentences.notNull;
    case 'DUPLICATE':
      return sentences.duplicate;
    case 'DUPLICATE_IN_FILE':
      return sentences.duplicateInFile;
    case 'DUPLICATE_KEY':
      return sentences.duplicateKey;
    case 'MISSING_REFERENCE':
      return sentences.missingReference;
    case 'IN_USE': {
      const plural = new Intl.PluralRules(language).select(details.count ?? 0);
      return plural === 'one' && 'inUse_one' in sentences
        ? sentences.inUse_one
        : sentences.inUse_other;
    }
    case 'CHECK': {
      if (details.rule) return sentences.check.rule;
      const words = CHECK_WORDS[details.comparison as keyof typeof CHECK_WORDS];
      return words && details.column ? sentences.check[words] : undefined;
    }
    case 'OVERLAPPING_PERIOD':
      return sentences.overlappingPeriod;
    case 'OUT_OF_SCOPE':
      return details.holder ? sentences.outOfScopeHeld : sentences.outOfScope;
    default:
      return undefined;
  }
}

/**
 * What went wrong with a row in `language`, in the web app's words for the same facts; undefined
 * for facts it has no words for (the caller keeps the API's English message).
 */
export function rowErrorSentence(
  details: RowErrorDetails,
  language: SentenceLanguage,
): RowErrorSentence | undefined {
  const template = templateOf(details, language);
  if (template === undefined) return undefined;
  const facts: Record<string, string> = {
    column: details.column ?? '',
    value: details.value ?? '',
    table: details.table ?? '',
    targetColumn: details.targetColumn ?? '',
    row: details.row ?? '',
    count: new Intl.NumberFormat(language).format(details.count ?? 0),
    bound: details.bound ?? '',
    upperBound: details.upperBound ?? '',
    rule: details.rule ?? '',
    holder: details.holder ?? '',
    period: periodText(details.period ?? ''),
  };
  const text = template.replace(
    /\{\{(\w+)(?:, number)?\}\}/g,
    (_whole, name: string) => facts[name] ?? '',
  );
  return { text, namesColumn: template.includes('{{column}}') };
}
