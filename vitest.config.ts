import { defineConfig } from 'vitest/config';

const ci = Boolean(process.env.CI);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'test/fixtures/**'],
    // The fixture sites' copy of the package, installed as users have it (test/support/installed-copy.ts).
    globalSetup: ['./test/support/installed-copy.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Astro builds and the browser are heavy on a 2-core machine: files run two at a time.
    maxWorkers: 2,
    allowOnly: false,
    // In CI, a failure's reason is printed where it happens (not only in the summary at the end of a long
    // log), and the console output of tests that passed is left out of the log.
    reporters: ci ? ['default', './test/support/failures-now.ts'] : ['default'],
    silent: ci ? 'passed-only' : false,
  },
});
