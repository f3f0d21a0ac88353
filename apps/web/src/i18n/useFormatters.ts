import { useTranslation } from 'react-i18next';
import { currentLanguage } from './i18n';
import { intlLocale } from './intlLocale';

export interface Formatters {
  locale: string;
  /** An instant (ISO 8601) as local date and time. */
  dateTime(iso: string): string;
  /** An instant to the second, for records where the order of events matters (audit history). */
  dateTimeSeconds(iso: string): string;
  /** The local time of day of an instant, to the second. */
  time(iso: string): string;
  /** A calendar date (`YYYY-MM-DD`), shown as it is: no time zone shifts it. */
  date(isoDate: string): string;
  /** A decimal number given as text, with exactly `fractionDigits` digits when given. */
  decimal(text: string, fractionDigits?: number): string;
  integer(text: string, grouping: boolean): string;
  count(value: number): string;
  /** A size in bytes, as kB or MB with at most one decimal (e.g. "1.3 MB" / "1.3 MB"). */
  bytes(value: number): string;
  /** A duration in whole seconds, e.g. "12 s" / "12 秒". */
  seconds(value: number): string;
  /** How long ago an instant was, e.g. "5 minutes ago" / "5 分前". */
  relative(iso: string, now: number): string;
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

function createFormatters(locale: string): Formatters {
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const dateTimeSeconds = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'medium',
  });
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const count = new Intl.NumberFormat(locale);
  const unit = (name: string) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, maximumFractionDigits: 1 });
  const kilobytes = unit('kilobyte');
  const megabytes = unit('megabyte');
  const seconds = new Intl.NumberFormat(locale, { style: 'unit', unit: 'second' });
  const plainInteger = new Intl.NumberFormat(locale, { useGrouping: false });
  const decimalFormats = new Map<number | undefined, Intl.NumberFormat>();
  const decimalFormat = (fractionDigits: number | undefined) => {
    let format = decimalFormats.get(fractionDigits);
    if (!format) {
      format = new Intl.NumberFormat(
        locale,
        fractionDigits === undefined
          ? { maximumFractionDigits: 20 }
          : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits },
      );
      decimalFormats.set(fractionDigits, format);
    }
    return format;
  };
  // Intl formats numeric strings exactly, without rounding them through a double.
  const asNumber = (text: string) => text as Intl.StringNumericLiteral;
  return {
    locale,
    dateTime: (iso) => dateTime.format(new Date(iso)),
    dateTimeSeconds: (iso) => dateTimeSeconds.format(new Date(iso)),
    time: (iso) => time.format(new Date(iso)),
    date: (isoDate) => {
      const parsed = new Date(`${isoDate}T00:00:00Z`);
      return Number.isNaN(parsed.getTime()) ? isoDate : date.format(parsed);
    },
    decimal: (text, fractionDigits) => decimalFormat(fractionDigits).format(asNumber(text)),
    integer: (text, grouping) => (grouping ? count : plainInteger).format(asNumber(text)),
    count: (value) => count.format(value),
    bytes: (value) =>
      value < 1_000_000 ? kilobytes.format(value / 1000) : megabytes.format(value / 1_000_000),
    seconds: (value) => seconds.format(value),
    relative: (iso, now) => {
      // `now` is refreshed only now and then, and the server's clock may run a little ahead:
      // anything within the last minute (or "in the future") is simply "now".
      let amount = Math.min(0, (new Date(iso).getTime() - now) / 1000);
      if (amount > -60) return relative.format(0, 'second');
      for (const [unit, size] of RELATIVE_STEPS) {
        if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
        amount /= size;
      }
      return dateTime.format(new Date(iso));
    },
  };
}

// Making Intl's formatters is slow (tens of ms for a page whose every component asked for its
// own set, on the table page's first render); they hold nothing of a caller, so one set per locale.
const formattersByLocale = new Map<string, Formatters>();

function formattersFor(locale: string): Formatters {
  let formatters = formattersByLocale.get(locale);
  if (!formatters) {
    formatters = createFormatters(locale);
    formattersByLocale.set(locale, formatters);
  }
  return formatters;
}

/** Locale-aware formatters for the current language. */
export function useFormatters(): Formatters {
  const { i18n } = useTranslation();
  return formattersFor(intlLocale(currentLanguage(i18n.resolvedLanguage)));
}
