import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * The folder of the @tablelock/api package (apps/api), the same whether this code runs from its
 * source (tsx, vitest) or compiled into apps/api/dist, where `import.meta.url` names a bundle.
 */
export const apiPackageDir = dirname(
  createRequire(import.meta.url).resolve('@tablelock/api/package.json'),
);
