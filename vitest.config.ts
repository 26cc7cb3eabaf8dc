import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Vitest runs one file at a time on a 2-core machine (its default is cores - 1), yet most
    // of the heavy files wait on child processes (the CLI, workers, redis-server) or on DuckDB's
    // disk writes: two files side by side keep both cores busy. Every test works in its own
    // temporary paths and ports, so files do not meet.
    maxWorkers: 2,
    // DuckDB-backed and ../shared tests can take a few seconds each on a 2-core CI box, and
    // longer with a second file running beside them.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
