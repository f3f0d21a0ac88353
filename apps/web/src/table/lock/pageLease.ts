/**
 * The lease a tab asks for, renewed every third of it (useLeaseRenewal) while the page is open:
 * a closed tab frees the table within 30 s (and the server's sweeper within about a second more).
 */
export const DEFAULT_PAGE_LEASE_SECONDS = 30;

/**
 * The lease this page's tabs ask for: the one the server that served the page names in its
 * `tablelock-lease-seconds` meta tag (WEB_LEASE_SECONDS, shorter only for tests: see
 * apps/api/src/http/pageLeaseTag.ts), else DEFAULT_PAGE_LEASE_SECONDS.
 */
export function pageLeaseSeconds(page: Document): number {
  return leaseSecondsNamed(
    page.querySelector('meta[name="tablelock-lease-seconds"]')?.getAttribute('content'),
  );
}

/** The lease a meta tag's `content` names: a whole number of seconds, else the default. */
export function leaseSecondsNamed(content: string | null | undefined): number {
  const seconds = Number(content);
  return content && Number.isInteger(seconds) && seconds > 0 ? seconds : DEFAULT_PAGE_LEASE_SECONDS;
}
