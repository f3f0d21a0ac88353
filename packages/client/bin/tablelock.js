#!/usr/bin/env node
// The compiled command line (pnpm build, run on pnpm install); stack traces name the sources.
process.setSourceMapsEnabled(true);
await import('../dist/cli.js');
