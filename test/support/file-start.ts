import { afterEach, beforeEach, vi } from 'vitest';

// Runs before each test file. A worker runs file after file (`isolate: false` in vitest.config.ts: a new
// process per file cost about a tenth of the suite), so what a file left in the process is undone here:
// - the package's process-wide records (`processRecord`, on globalThis under `astro-content-publisher.*`) are
//   emptied in place, not deleted (a copy of the package loaded by an earlier file keeps its reference to them),
//   and the values read afresh each time (the Astro command) are deleted;
// - the environment variables, the working directory and fetch are put back as they were when the worker started,
//   the clock is real again and spies are restored (a file that failed may not have done it).
const ORIGINAL = Symbol.for('astro-content-publisher-tests.worker-start');
type Start = { env: Record<string, string | undefined>; cwd: string; fetch: typeof fetch };
const global = globalThis as Record<symbol, unknown>;
const start = (global[ORIGINAL] ??= { env: { ...process.env }, cwd: process.cwd(), fetch: globalThis.fetch }) as Start;

for (const key of Object.getOwnPropertySymbols(globalThis)) {
  if (!key.description?.startsWith('astro-content-publisher.')) continue;
  const record = global[key];
  if (record instanceof Map || record instanceof Set) record.clear();
  else if (Array.isArray(record)) record.length = 0;
  else if (!(record instanceof WeakSet || record instanceof WeakMap)) delete global[key];
}
for (const name of Object.keys(process.env)) if (!(name in start.env)) delete process.env[name];
Object.assign(process.env, start.env);
if (process.cwd() !== start.cwd) process.chdir(start.cwd);
// A file that failed before its own clean-up may have left these.
globalThis.fetch = start.fetch;
vi.useRealTimers();
vi.restoreAllMocks();

// What the loaders saw of a service's hourly window is kept per service address and key. A simulator that a
// test closed frees its port, and the next test's simulator may be given the same one: it would inherit the
// count an earlier test drained (a build refused at the reserve before its first request). Each test starts
// as a new build process does, knowing nothing of the window.
beforeEach(() => {
  for (const name of ['rate-window', 'rate-window-forgotten']) {
    const record = global[Symbol.for(`astro-content-publisher.${name}`)];
    if (record instanceof Map) record.clear();
  }
});

// A test that faked the clock and failed before restoring it would hand the fake clock to the next test of its
// file: every test starts with the real one (a test that moves a server's clock says where: fakeDateAhead in
// test/support/timing.ts).
afterEach(() => {
  vi.useRealTimers();
});
