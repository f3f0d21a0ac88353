/** The browser's time zone, as the user's clock shows times (e.g. Asia/Tokyo). */
export const userTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An instant as a `datetime-local` input's value: the user's local date and time, to the minute. */
export function toLocalInput(instant: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}T${pad(
    instant.getHours(),
  )}:${pad(instant.getMinutes())}`;
}

/** A `datetime-local` input's value (local time) as an ISO instant; null when it is not a time. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? null : instant.toISOString();
}
