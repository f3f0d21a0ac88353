import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * helmet's headers for the web app's pages and files, with a Content-Security-Policy: its own scripts only (no
 * inline script), inline styles (AG Grid injects its theme as <style>), no framing. HSTS is
 * left to the TLS-terminating proxy, which knows whether every subdomain speaks HTTPS; and
 * requests are not upgraded, so the app also works over plain HTTP on an intranet host.
 */
export const securityHeaders = () =>
  helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': null,
      },
    },
    strictTransportSecurity: false,
  });

/**
 * GraphQL answers JSON, which no browser renders as a page: of the page headers only the one
 * that stops a browser from sniffing another type matters, and it costs a few bytes. No answer
 * of the API (lock states, a table's rows) may be kept by a cache, errors included.
 */
export const apiResponseHeaders: RequestHandler = (_request, response, next) => {
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Cache-Control', 'no-store');
  next();
};
