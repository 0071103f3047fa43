/**
 * The service's clock. A test that fakes time for the blog (`vi.useFakeTimers()`, `vi.setSystemTime()`) runs in
 * the same process as the simulator and replaces the global `Date`: read through it, the service's rate-limit
 * windows, `updated_at` and feed dates would move with the blog's fake time, which no real service does. So the
 * simulator keeps the `Date.now` that was there when it was first loaded.
 */
const nativeNow = Date.now;
const NativeDate = Date;

/** Milliseconds since the epoch, as the machine's real clock says, whatever a test did to the global `Date`. */
export function serviceNow(): number {
  return nativeNow.call(NativeDate);
}
