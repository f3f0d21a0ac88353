import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import express, { type Router } from 'express';
import { apiPackageDir } from '../apiPackageDir';
import { withPageLease } from './pageLeaseTag';

const WEB_DIST = join(apiPackageDir, '../web/dist');

const NOT_BUILT =
  'The tablelock web app is not built yet. Run `pnpm start` (it builds it), or ' +
  '`pnpm --filter @tablelock/web build`, then reload this page. GraphQL is at /graphql.';

// Addresses of the server itself (GraphQL, probes, metrics, APIs to come): an unknown one is a
// 404 for the program that asked, never the app's page with status 200.
const SERVER_PATHS = /^\/(graphql|api|export|healthz|readyz|metrics)(\/|$)/;
const isServerPath = (path: string) => SERVER_PATHS.test(path);

export interface WebAppOptions {
  /** The built web app; apps/web/dist unless given. */
  distDir?: string;
  /** The lease its pages ask for (WEB_LEASE_SECONDS); unset, their own. */
  leaseSeconds?: number;
}

/**
 * Serves the built web app (apps/web/dist) on the API's port: its files, and index.html for
 * any other page address so that the app's own routes survive a reload. Mount it after
 * /graphql. Checked per request, so a build made while the server runs is picked up.
 */
export function serveWebApp({ distDir = WEB_DIST, leaseSeconds }: WebAppOptions = {}): Router {
  const router = express.Router();
  const indexHtml = join(distDir, 'index.html');
  router.use(
    express.static(distDir, {
      index: false,
      setHeaders: (response, path) => {
        // Vite puts a content hash in every asset name: a changed file gets a new name.
        if (path.startsWith(join(distDir, 'assets'))) {
          response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    }),
  );
  router.use(async (request, response, next) => {
    if (isServerPath(request.path)) {
      response.status(404).json({
        errors: [{ message: `Nothing is at ${request.path}.`, extensions: { code: 'NOT_FOUND' } }],
      });
      return;
    }
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      // A missing script or image is a 404, not the app's page in its place.
      extname(request.path) === '';
    if (!isPage) return next();
    if (!existsSync(indexHtml)) {
      response.status(503).type('text/plain').send(NOT_BUILT);
      return;
    }
    response.setHeader('Cache-Control', 'no-cache');
    if (leaseSeconds === undefined) {
      response.sendFile(indexHtml);
      return;
    }
    response.type('html').send(withPageLease(await readFile(indexHtml, 'utf8'), leaseSeconds));
  });
  return router;
}
