import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // DuckDB-backed and ../shared tests can take a few seconds each on a 2-core CI box.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
