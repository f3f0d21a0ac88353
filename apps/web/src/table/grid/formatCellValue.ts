import type { TFunction } from 'i18next';
import type { Formatters } from '../../i18n/useFormatters';
import { periodText } from '../../ui/periodBounds';
import { parseBooleanText } from '../changes/booleanText';
import { numericLimits } from '../changes/columnType';
import type { TableColumn } from './useTableColumns';

/**
 * A stored value as the user reads it: numbers and dates in the user's locale, booleans as
 * words, periods from their first to their last day. Identifiers (keys and references) keep
 * their digits ungrouped. A value that is not
 * valid for the column (a typo not yet fixed) is shown exactly as typed.
 */
export function formatCellValue(
  column: TableColumn,
  value: string,
  format: Formatters,
  t: TFunction,
): string {
  switch (column.kind) {
    case 'integer':
      return /^[+-]?\d+$/.test(value)
        ? format.integer(value, !column.primaryKey && !column.references)
        : value;
    case 'decimal':
      return /^[+-]?\d*\.?\d+$|^[+-]?\d+\.$/.test(value)
        ? format.decimal(value, numericLimits(column.dataType).scale)
        : value;
    case 'date':
      return format.date(value);
    case 'timestamp': {
      const instant = new Date(value.replace(' ', 'T'));
      return Number.isNaN(instant.getTime()) ? value : format.dateTime(instant.toISOString());
    }
    case 'period':
      return periodText(value, (bound) =>
        /^\d{4}-\d{2}-\d{2}$/.test(bound) ? format.date(bound) : bound,
      );
    case 'boolean': {
      const flag = parseBooleanText(value);
      return flag === null ? value : flag ? t('grid.yes') : t('grid.no');
    }
    default:
      return value;
  }
}
