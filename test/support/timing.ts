/**
 * The fastest of `times` runs of `run`, in milliseconds. Tests that bound the time of a computation assert on
 * this, not on one run: another process on the machine, or a garbage collection, can only make a run slower,
 * so the fastest run measures the work itself, while an expansion or a quadratic path is slow on every run.
 */
export function fastestMs(run: () => unknown, times = 3): number {
  let fastest = Infinity;
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}
