import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { ValidationIssue } from './validateValue';

/** Turns a validation issue into a sentence in the user's language. */
export function useValidationMessage(): (issue: ValidationIssue) => string {
  const { t } = useTranslation();
  return useCallback(
    (issue: ValidationIssue): string => {
      switch (issue.code) {
        case 'required':
          return t('validation.required');
        case 'tooLong':
          return t('validation.tooLong', { max: issue.max });
        case 'notInteger':
          return t('validation.notInteger');
        case 'outOfRange':
          return t('validation.outOfRange', { min: issue.min, max: issue.max });
        case 'notDecimal':
          return t('validation.notDecimal');
        case 'decimalComma':
          return t('validation.decimalComma');
        case 'tooManyDigits':
          return t('validation.tooManyDigits', { digits: issue.digits });
        case 'tooManyDecimals':
          return t('validation.tooManyDecimals', { scale: issue.scale });
        case 'notBoolean':
          return t('validation.notBoolean');
        case 'notDate':
          return t('validation.notDate');
        case 'notTimestamp':
          return t('validation.notTimestamp');
        case 'notPeriod':
          return t('validation.notPeriod');
        case 'duplicate':
          return t('validation.duplicate');
      }
    },
    [t],
  );
}
