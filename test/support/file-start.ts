// Runs before each test file. A worker runs file after file (`isolate: false` in vitest.config.ts: a new
// process per file cost about a tenth of the suite), so what a file left in the process is undone here:
// - the package's process-wide records (`processRecord`, on globalThis under `astro-content-publisher.*`) are
//   emptied in place, not deleted (a copy of the package loaded by an earlier file keeps its reference to them),
//   and the values read afresh each time (the Astro command) are deleted;
// - the environment variables and the working directory are put back as they were when the worker started.
const ORIGINAL = Symbol.for('astro-content-publisher-tests.worker-start');
type Start = { env: Record<string, string | undefined>; cwd: string };
const global = globalThis as Record<symbol, unknown>;
const start = (global[ORIGINAL] ??= { env: { ...process.env }, cwd: process.cwd() }) as Start;

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
