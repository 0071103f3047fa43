import { defineConfig } from 'vitest/config';
import FoldersFirstSequencer from './test/support/sequencer.js';

const ci = Boolean(process.env.CI);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'test/fixtures/**'],
    // The fixture sites' copy of the package, installed as users have it (test/support/installed-copy.ts).
    globalSetup: ['./test/support/installed-copy.ts'],
    // A worker runs file after file in one process (a new process per file cost about a tenth of the suite:
    // Node loading Astro, Vite and Rolldown again); test/support/file-start.ts undoes what a file leaves behind.
    isolate: false,
    setupFiles: ['./test/support/file-start.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Astro builds wait on Rolldown's threads and the disk for about a third of their time: on a 2-core machine
    // three files at a time finish the suite sooner than two (604 s against 700 s, both with a process per file).
    maxWorkers: 3,
    // Rolldown (Vite's bundler, in every Astro build) starts a pool of threads per core in each process that
    // builds: three such processes on two cores spent CPU switching between them. One thread each: the nine
    // build-heaviest files of test/astro took 5 to 9 % less CPU and 7 % less time (three alternated runs each,
    // `npm exec -- vitest run <files>`), the whole suite 8 % less CPU (docs/development.md), every test passing as
    // before. Processes the tests start inherit it.
    env: {
      ROLLDOWN_WORKER_THREADS: process.env.ROLLDOWN_WORKER_THREADS ?? '1',
      RAYON_NUM_THREADS: process.env.RAYON_NUM_THREADS ?? '1',
    },
    // The longest files first, also in a fresh clone (no durations recorded yet).
    sequence: { sequencer: FoldersFirstSequencer },
    allowOnly: false,
    // In CI, a failure's reason is printed where it happens (not only in the summary at the end of a long
    // log), and the console output of tests that passed is left out of the log.
    reporters: ci ? ['default', './test/support/failures-now.ts'] : ['default'],
    silent: ci ? 'passed-only' : false,
  },
});
