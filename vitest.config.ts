import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{apps,packages}/*/test/**/*.test.ts'],
    globalSetup: ['packages/test-support/src/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
