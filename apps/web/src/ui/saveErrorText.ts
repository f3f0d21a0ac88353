import type { TFunction } from 'i18next';
import type { RowErrorDetailsFieldsFragment as RowErrorDetails } from '../generated/graphql';
import { periodText } from './periodBounds';

/** A row the API refused: its code, the English sentence, and the facts to say it in words. */
interface SaveError {
  code: string;
  message: string;
  details: Partial<RowErrorDetails> & Pick<RowErrorDetails, 'kind'>;
}

const KNOWN_CODES = [
  'ROW_CONFLICT',
  'INVALID_VALUE',
  'NOT_NULL',
  'UNIQUE',
  'FOREIGN_KEY',
  'CHECK',
  'OVERLAPPING_PERIOD',
  'OUT_OF_SCOPE',
] as const;
type KnownCode = (typeof KNOWN_CODES)[number];

function isKnownCode(code: string): code is KnownCode {
  return (KNOWN_CODES as readonly string[]).includes(code);
}

const CHECK_WORDS = {
  '>=': 'atLeast',
  '>': 'moreThan',
  '<=': 'atMost',
  '<': 'lessThan',
  '=': 'exactly',
  '<>': 'otherThan',
  BETWEEN: 'between',
} as const;

/** The sentence for the error's facts, or undefined for facts this version does not know. */
function sentenceOf({ details }: SaveError, t: TFunction): string | undefined {
  const facts = {
    column: details.column ?? '',
    value: details.value ?? '',
    table: details.table ?? '',
    targetColumn: details.targetColumn ?? '',
    row: details.row ?? '',
    count: details.count ?? 0,
    bound: details.bound ?? '',
    upperBound: details.upperBound ?? '',
    rule: details.rule ?? '',
    holder: details.holder ?? '',
    period: periodText(details.period ?? ''),
  };
  switch (details.kind) {
    case 'CONFLICT':
      return t('rowErrors.conflict');
    case 'INVALID_VALUE':
      return t('rowErrors.invalidValue', facts);
    case 'NOT_NULL':
      return t('rowErrors.notNull', facts);
    case 'DUPLICATE':
      return t('rowErrors.duplicate', facts);
    case 'DUPLICATE_IN_FILE':
      return t('rowErrors.duplicateInFile', facts);
    case 'DUPLICATE_KEY':
      return t('rowErrors.duplicateKey', facts);
    case 'MISSING_REFERENCE':
      return t('rowErrors.missingReference', facts);
    case 'IN_USE':
      return t('rowErrors.inUse', facts);
    case 'CHECK': {
      if (details.rule) return t('rowErrors.check.rule', facts);
      const words = CHECK_WORDS[details.comparison as keyof typeof CHECK_WORDS];
      return words && details.column ? t(`rowErrors.check.${words}`, facts) : undefined;
    }
    case 'OVERLAPPING_PERIOD':
      return t('rowErrors.overlappingPeriod', facts);
    case 'OUT_OF_SCOPE':
      return details.holder
        ? t('rowErrors.outOfScopeHeld', facts)
        : t('rowErrors.outOfScope', facts);
    default:
      return undefined;
  }
}

/**
 * What went wrong with a row, and what to do, in the user's language. An error whose facts
 * this version cannot put into words shows its code's label and the API's English sentence.
 */
export function saveErrorText(error: SaveError, t: TFunction): string {
  const sentence = sentenceOf(error, t);
  if (sentence !== undefined) return sentence;
  const label = isKnownCode(error.code) ? t(`saveErrors.${error.code}`) : error.code;
  return `${label}: ${error.message}`;
}
