/**
 * The meta tag through which the server tells the web app's pages what lease to ask for
 * (WEB_LEASE_SECONDS). The web app reads it by this name (apps/web/src/table/lock/pageLease.ts).
 */
export const PAGE_LEASE_META = 'tablelock-lease-seconds';

/** The app's page `html` with the lease its tabs ask for, in seconds. */
export function withPageLease(html: string, leaseSeconds: number): string {
  return html.replace(
    '</head>',
    `<meta name="${PAGE_LEASE_META}" content="${leaseSeconds}" /></head>`,
  );
}
