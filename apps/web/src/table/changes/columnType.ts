/** The limits a column's Postgres type puts on a number. */
export interface NumericLimits {
  /** Digits before the decimal point at most; undefined when the type sets none. */
  integerDigits?: number;
  /** Digits after the decimal point at most; undefined when the type sets none. */
  scale?: number;
  /** For integer types: the range, as bigints so that bigint columns are exact. */
  min?: bigint;
  max?: bigint;
}

const INTEGER_RANGES: Record<string, [bigint, bigint]> = {
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n],
};

/** Reads `numeric(12,2)`, `integer`, ... as the API reports `Column.dataType`. */
export function numericLimits(dataType: string): NumericLimits {
  const range = INTEGER_RANGES[dataType];
  if (range) return { min: range[0], max: range[1] };
  const numeric = /^numeric\((\d+)(?:,\s*(\d+))?\)$/.exec(dataType);
  if (!numeric) return {};
  const precision = Number(numeric[1]);
  const scale = Number(numeric[2] ?? 0);
  return { integerDigits: precision - scale, scale };
}
