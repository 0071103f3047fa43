import { vi } from 'vitest';

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

/**
 * Fakes `Date` only, at the real time plus `aheadMs`: for a server that runs in the test's process and reads
 * Date (the on-demand routes' caches), to expire what it keeps without waiting. Each test that moves such a
 * clock says where it needs it, counted from the real time (which `performance` keeps: it is not faked), so a
 * test never depends on the clock an earlier one left; test/support/file-start.ts makes it real again after
 * every test.
 */
export function fakeDateAhead(aheadMs: number): void {
  const now = realNow() + aheadMs;
  if (vi.isFakeTimers()) vi.setSystemTime(now);
  else vi.useFakeTimers({ toFake: ['Date'], now });
}

/**
 * The real time in ms since the epoch, whatever `Date` says: for a test's own waits on a server in its process
 * (the simulator keeps real time), while another test of the file may have moved the blog's `Date`.
 */
export function realNow(): number {
  return performance.timeOrigin + performance.now();
}

/** `fastestMs` for asynchronous work: the fastest of `times` runs of `run` (given the run's index), in ms. */
export async function fastestMsAsync(run: (index: number) => Promise<unknown>, times = 3): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await run(i);
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}
