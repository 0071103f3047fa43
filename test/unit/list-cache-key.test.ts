import { describe, expect, it } from 'vitest';
import { listCacheKey } from '../../src/loader/index.js';

const a = { id: 'a', digest: 'da' };
const b = { id: 'b', digest: 'db' };

describe('listCacheKey', () => {
  it('changes when an entry changes, is added or removed, and not otherwise', () => {
    expect(listCacheKey([a, b])).toBe(listCacheKey([{ ...a }, { ...b }]));
    expect(listCacheKey([a, b])).not.toBe(listCacheKey([a, { ...b, digest: 'db2' }]));
    expect(listCacheKey([a, b])).not.toBe(listCacheKey([a]));
    expect(listCacheKey([a, b])).not.toBe(listCacheKey([b, a]));
  });

  it('takes a missing neighbour (the first and last article of [entry, previous, next]) as an empty place', () => {
    // The incremental guide's recipe on the first article: its previous one is undefined.
    expect(() => listCacheKey([a, undefined, b])).not.toThrow();
    expect(listCacheKey([a, undefined, b])).toMatch(/^3:/);
    // Which neighbour is missing still counts: a first and a last article differ.
    expect(listCacheKey([a, undefined, b])).not.toBe(listCacheKey([a, b, undefined]));
    expect(listCacheKey([a, null, b])).toBe(listCacheKey([a, undefined, b]));
    expect(listCacheKey([a, undefined, b])).not.toBe(listCacheKey([a, b]));
  });
});
