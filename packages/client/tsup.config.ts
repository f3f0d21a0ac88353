import { defineConfig } from 'tsup';

// The library (dist/index.js) and the command line (dist/cli.js), as published. Dependencies stay
// imports that Node resolves at run time; `prepack` adds the type declarations.
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli/main.ts' },
  outDir: 'dist',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
});
