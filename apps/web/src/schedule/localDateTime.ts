/** The user's time zone, as the browser knows it (e.g. "Asia/Tokyo"): the one times are typed in. */
export const userTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const pad = (value: number) => String(value).padStart(2, '0');

/** An instant as a `datetime-local` input's value (to the second), in the user's time zone. */
export function toLocalInput(instant: Date): string {
  const date = `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
  return `${date}T${pad(instant.getHours())}:${pad(instant.getMinutes())}:${pad(instant.getSeconds())}`;
}

/** A `datetime-local` input's value, read in the user's time zone; null when it is no time. */
export function fromLocalInput(value: string): Date | null {
  // Without an offset, a date-time string is local time (ECMAScript's Date.parse).
  const instant = new Date(value);
  return value === '' || Number.isNaN(instant.getTime()) ? null : instant;
}

/** The local calendar day of an instant (`YYYY-MM-DD`), the calendar's grouping. */
export const localDay = (iso: string): string => toLocalInput(new Date(iso)).slice(0, 10);
