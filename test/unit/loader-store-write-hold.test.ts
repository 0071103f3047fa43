// The hold that keeps Astro from writing its whole store in the middle of a warm load (store-write-hold.ts):
// the state is set again, unchanged, under Astro's 500 ms debounce while the load runs, and never once released.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOLD_EVERY_MS, holdStoreWrites } from '../../src/loader/state/store-write-hold.js';

function fakeMeta(initial: Record<string, string>) {
  const values = new Map(Object.entries(initial));
  const sets: Array<[string, string]> = [];
  return {
    sets,
    meta: {
      get: (key: string) => values.get(key),
      set: (key: string, value: string) => {
        sets.push([key, value]);
        values.set(key, value);
      },
      has: (key: string) => values.has(key),
      delete: (key: string) => void values.delete(key),
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('holdStoreWrites', () => {
  it('sets the stored state again, unchanged, more often than every 500 ms until released, then never', () => {
    vi.useFakeTimers();
    const { meta, sets } = fakeMeta({ 'k:state': '{"entries":{}}' });
    const release = holdStoreWrites(meta, 'k:state');
    vi.advanceTimersByTime(2_000);
    expect(HOLD_EVERY_MS).toBeLessThan(500);
    expect(sets).toHaveLength(Math.floor(2_000 / HOLD_EVERY_MS));
    expect(new Set(sets.map(([key, value]) => `${key}=${value}`))).toEqual(new Set(['k:state={"entries":{}}']));
    release();
    vi.advanceTimersByTime(2_000);
    expect(sets).toHaveLength(Math.floor(2_000 / HOLD_EVERY_MS));
  });

  it('a load that stores a new state meanwhile: the hold sets that one, never the old', () => {
    vi.useFakeTimers();
    const { meta, sets } = fakeMeta({ 'k:state': 'old' });
    const release = holdStoreWrites(meta, 'k:state');
    vi.advanceTimersByTime(HOLD_EVERY_MS);
    meta.set('k:state', 'new');
    vi.advanceTimersByTime(HOLD_EVERY_MS * 2);
    release();
    expect(sets.map(([, value]) => value)).toEqual(['old', 'new', 'new', 'new']);
  });

  it('a cold load (no state yet) is not held: Astro keeps what it stores as it goes', () => {
    vi.useFakeTimers();
    const { meta, sets } = fakeMeta({});
    const release = holdStoreWrites(meta, 'k:state');
    vi.advanceTimersByTime(2_000);
    release();
    expect(sets).toEqual([]);
  });
});
