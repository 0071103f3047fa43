import { describe, expect, it } from 'vitest';
import { errorForStatus } from '../../src/client/error-map.js';
import { offsetOfNext } from '../../src/client/resources/articles.js';

describe("a page's next hint (offsetOfNext): only its offset, and only forward", () => {
  it('reads the offset parameter; a next without one, or one that steps back, gives none', () => {
    expect(offsetOfNext('https://svc.example.com/api/v1/sites/12/articles/?offset=50', 50)).toBe(50);
    expect(offsetOfNext('/api/v1/sites/12/articles/?limit=50&offset=100', 50)).toBe(100);
    // A next naming a page number, read before anything was: no offset (not 0, which would read page 1 again).
    expect(offsetOfNext('/api/v1/sites/12/articles/?page=2', 0)).toBeUndefined();
    expect(offsetOfNext('/api/v1/sites/12/articles/?offset=10', 20)).toBeUndefined();
    expect(offsetOfNext(null, 0)).toBeUndefined();
    expect(offsetOfNext('http://[broken', 0)).toBeUndefined();
  });
});

describe('what a 404 is about', () => {
  const notFound = (path: string, apiMessage?: string) =>
    errorForStatus({ method: 'GET', path, status: 404, ...(apiMessage ? { apiMessage } : {}) }).hint;

  it('a call naming a site, answered with the service error: the site id or slug', () => {
    expect(notFound('/api/v1/sites/12/articles/x/', 'Not found.')).toMatch(/^Check the site id or the article slug/);
  });
  it('a call naming no site, or an answer that is not the service error: the address', () => {
    expect(notFound('/api/v1/me/', 'Not found.')).toMatch(
      /^Nothing answers this call at that address: check `baseUrl`/,
    );
    expect(notFound('/api/v1/sites/12/articles/')).toMatch(/^Nothing answers this call at that address/);
  });
  it('a public feed (no token sent): the site id and the address, not the owner of a token', () => {
    const hint = notFound('/api/sites/12/rss.xml', 'Not found.');
    expect(hint).toBe(
      'Check the site id (the service has no public feed for an unknown or inactive site) and `baseUrl`, the service address.',
    );
  });
});
