import { describe, expect, it } from 'vitest';
import { rememberedNotice, type Notice } from '../../src/loader/articles/notice-memory.js';
import { EMPTY_STATE, type SyncState } from '../../src/loader/state/state.js';

const T0 = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;
const fresh = (): SyncState => structuredClone(EMPTY_STATE);
const cut = (count: number, kept: number): Notice => ({
  level: 'warn',
  key: `cut:${count}`,
  message: `The list came back with ${count} articles; ${kept} kept.`,
});

describe('rememberedNotice: a lasting condition is warned about when it appears or changes', () => {
  it('warns once, then says it as an info line (with the warned build) while the key stays, whatever its counts', () => {
    const state = fresh();
    expect(rememberedNotice(state, 'capped', cut(10, 20), T0, false)).toEqual(cut(10, 20));
    expect(state.notices).toEqual({ capped: { key: 'cut:10', at: T0 } });
    expect(rememberedNotice(state, 'capped', cut(10, 21), T0 + HOUR, false)).toEqual({
      level: 'info',
      message:
        'The list came back with 10 articles; 21 kept. (Unchanged since the build of 2026-06-01 12:00 UTC warned about it; it is warned about again when it changes.)',
    });
    // The warned build stays the one named.
    expect(state.notices).toEqual({ capped: { key: 'cut:10', at: T0 } });
  });

  it('warns again when the key changes, or when the condition comes back after a build without it', () => {
    const state = fresh();
    rememberedNotice(state, 'capped', cut(10, 20), T0, false);
    expect(rememberedNotice(state, 'capped', cut(15, 15), T0 + HOUR, false)?.level).toBe('warn');
    expect(state.notices?.capped).toEqual({ key: 'cut:15', at: T0 + HOUR });
    expect(rememberedNotice(state, 'capped', undefined, T0 + 2 * HOUR, false)).toBeUndefined();
    expect(state.notices).toBeUndefined();
    expect(rememberedNotice(state, 'capped', cut(15, 15), T0 + 3 * HOUR, false)?.level).toBe('warn');
  });

  it('an info notice (nothing to act on) passes as it is and forgets the warning; kinds are remembered apart', () => {
    const state = fresh();
    rememberedNotice(state, 'capped', cut(10, 20), T0, false);
    rememberedNotice(state, 'repeated', { level: 'warn', key: 'k', message: 'repeats' }, T0, false);
    const info: Notice = { level: 'info', message: 'kept, the sitemap may be stale' };
    expect(rememberedNotice(state, 'capped', info, T0 + HOUR, false)).toEqual(info);
    expect(state.notices).toEqual({ repeated: { key: 'k', at: T0 } });
    expect(rememberedNotice(state, 'repeated', { level: 'warn', key: 'k', message: 'repeats' }, T0, false)?.level).toBe(
      'info',
    );
  });

  it('strict: every build warns (and so fails) while the condition holds', () => {
    const state = fresh();
    rememberedNotice(state, 'capped', cut(10, 20), T0, true);
    expect(rememberedNotice(state, 'capped', cut(10, 20), T0 + HOUR, true)).toEqual(cut(10, 20));
  });
});
