/**
 * The specs that run against an app with short clocks (the `short-clocks` project in
 * playwright.config.ts): its pages ask for leases of 10 s instead of production's 30 s and renew
 * them every few seconds, so that a closed tab's lock ends within seconds, a page hears of an
 * idle limit of 10 s before it runs out, and a holder's first renewal (which tells the server of
 * her last activity) comes after 3 s instead of 10. Only these specs: a lease this short can run
 * out while a long axe scan holds a page's main thread on a busy machine.
 */
export const SHORT_CLOCK_SPECS = [
  'closed-tab-lock-expires.spec.ts',
  'idle-release.spec.ts',
  'take-over-idle-holder.spec.ts',
];

/** The lease the short-clocks app's pages ask for. */
export const SHORT_PAGE_LEASE_SECONDS = 10;

/** The app's settings for short clocks: the API refuses a page lease under LEASE_MIN_SECONDS. */
export const SHORT_CLOCK_SETTINGS: Record<string, string> = {
  LEASE_MIN_SECONDS: String(SHORT_PAGE_LEASE_SECONDS),
  WEB_LEASE_SECONDS: String(SHORT_PAGE_LEASE_SECONDS),
};
