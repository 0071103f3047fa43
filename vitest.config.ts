import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'test/fixtures/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Astro builds and the browser are heavy on a 2-core machine: files run two at a time.
    maxWorkers: 2,
    allowOnly: false,
  },
});
