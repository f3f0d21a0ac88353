import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * The folder of the @tablelock/db package, found the way Node finds the package. Bundled into
 * the compiled app, this module's `import.meta.url` names the bundle (apps/api/dist), not this
 * file: only a lookup of the package itself gives the same folder from source and from a bundle.
 */
export const dbPackageDir = dirname(
  createRequire(import.meta.url).resolve('@tablelock/db/package.json'),
);
