import helmet from 'helmet';

/**
 * helmet's headers with a Content-Security-Policy for the web app: its own scripts only (no
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
