/** How long a downloaded image copy is used without asking its host again (RFC 9111's freshness). */
import { describe, expect, it } from 'vitest';
import { freshnessRecord, freshUntil } from '../../src/loader/images/image-freshness.js';

const NOW = Date.UTC(2026, 10, 26, 12);
const at = (headers: Record<string, string>) => (freshUntil(new Headers(headers), NOW) - NOW) / 1000;

describe('freshUntil', () => {
  it('max-age, less the Age a cache already held it; immutable copies for their max-age', () => {
    expect(at({ 'cache-control': 'public, max-age=31536000, immutable' })).toBe(31_536_000);
    expect(at({ 'cache-control': 'max-age=600', age: '100' })).toBe(500);
    expect(at({ 'cache-control': 'max-age=60', age: '100' })).toBe(0);
  });

  it('no-cache and no-store: ask on every build, whatever else the response says', () => {
    expect(at({ 'cache-control': 'no-cache', etag: '"a"' })).toBe(0);
    expect(at({ 'cache-control': 'public, no-store, max-age=600' })).toBe(0);
  });

  it('Expires against the Date of the response; else a tenth of the time since Last-Modified; else nothing', () => {
    const date = new Date(NOW - 60_000).toUTCString();
    expect(at({ expires: new Date(NOW + 3_540_000).toUTCString(), date })).toBe(3600);
    expect(at({ 'last-modified': new Date(NOW - 10 * 86_400_000).toUTCString() })).toBe(86_400);
    expect(at({ etag: '"a"' })).toBe(0);
    expect(at({ expires: 'not a date' })).toBe(0);
  });
});

describe('freshnessRecord', () => {
  const previous = {
    name: 'a.png',
    until: NOW - 1,
    checked: NOW - 86_400_000,
    etag: '"v1"',
    lastModified: 'Mon, 02 Nov 2026 10:00:00 GMT',
  };

  it('a 304 without validators keeps those of the same file, and says when it was asked', () => {
    const record = freshnessRecord('a.png', new Headers({ 'cache-control': 'max-age=60' }), NOW, previous);
    expect(record).toEqual({ ...previous, until: NOW + 60_000, checked: NOW });
  });

  it("each of an answer's own validators replaces the old one; an empty header is no validator", () => {
    const etagOnly = freshnessRecord('a.png', new Headers({ etag: '"v2"' }), NOW, previous);
    expect(etagOnly).toMatchObject({ etag: '"v2"', lastModified: previous.lastModified });
    expect(freshnessRecord('a.png', new Headers({ etag: '' }), NOW, previous).etag).toBe('"v1"');
  });

  it('another file (other bytes under the URL) keeps none of the old validators', () => {
    const other = freshnessRecord('a-0123456789ab.png', new Headers({}), NOW, previous);
    expect(other).toEqual({ name: 'a-0123456789ab.png', until: NOW, checked: NOW });
  });
});
