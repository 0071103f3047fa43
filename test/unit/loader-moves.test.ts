/** Renamed articles remembered by the loader (moves.ts): recognised, collapsed, never a loop, kept for a while. */
import { describe, expect, it } from 'vitest';
import { nextMoves, renamesOf } from '../../src/loader/state/moves.js';

const DAY = 86_400_000;
const all = () => true;
const none = () => false;
const only =
  (...slugs: string[]) =>
  (slug: string) =>
    slugs.includes(slug);

describe('renamesOf', () => {
  it('a removed slug whose title and day one stored article has is a rename; two such articles are none', () => {
    const ids: Record<string, string> = { old: 'A', new: 'A', gone: 'B', twin1: 'C', twin2: 'C', lost: 'C' };
    expect(renamesOf(['old', 'gone', 'lost'], ['new', 'twin1', 'twin2', 'old'], (s) => ids[s])).toEqual([
      { from: 'old', to: 'new' },
    ]);
  });

  it('an article stored while the removed one was still listed is another article, not its new slug', () => {
    // Found by the site model (MODEL_SEED=20261209, fixed rounds): fr:a1 renamed to a5, then a new fr:a1 of the
    // same title and day published beside it; when a5 was unpublished a build later, a5 redirected to a1.
    const ids: Record<string, string> = { a5: 'A', a1: 'A', old: 'B', new: 'B' };
    const beside = (from: string, to: string) => from === 'a5' && to === 'a1';
    expect(renamesOf(['a5', 'old'], ['a1', 'new'], (s) => ids[s], beside)).toEqual([{ from: 'old', to: 'new' }]);
  });
});

describe('nextMoves', () => {
  it('records a rename with its time, and collapses a chain (a->b, b->c gives a->c)', () => {
    const first = nextMoves(undefined, [{ from: 'a', to: 'b' }], 1, 365 * DAY, none, only('b'));
    expect(first).toEqual({ a: { to: 'b', at: 1 } });
    const second = nextMoves(first, [{ from: 'b', to: 'c' }], 2, 365 * DAY, none, only('c'));
    expect(second).toEqual({ a: { to: 'c', at: 2 }, b: { to: 'c', at: 2 } });
  });

  it('never a loop: renamed back, the old slug is an article again and its move leaves', () => {
    const first = nextMoves(undefined, [{ from: 'a', to: 'b' }], 1, 365 * DAY, none, only('b'));
    expect(nextMoves(first, [{ from: 'b', to: 'a' }], 2, 365 * DAY, only('a'), only('a'))).toEqual({
      b: { to: 'a', at: 2 },
    });
  });

  it('drops a move when the new slug is unpublished, the old one published again, or it is older than kept', () => {
    const moves = { a: { to: 'b', at: 0 } };
    expect(nextMoves(moves, [], 1, 365 * DAY, none, none)).toBeUndefined();
    expect(nextMoves(moves, [], 1, 365 * DAY, only('a'), all)).toBeUndefined();
    expect(nextMoves(moves, [], 366 * DAY, 365 * DAY, none, all)).toBeUndefined();
    expect(nextMoves(moves, [], 364 * DAY, 365 * DAY, none, all)).toEqual(moves);
  });
});
