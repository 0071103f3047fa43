// The tests' XSD validator (libxml2 in WebAssembly, test/support/xmllint.ts) must fail on what Debian's
// xmllint fails on, or every "validates against the sitemap 0.9 schema" assertion would prove nothing.
import { describe, expect, it } from 'vitest';
import { validateAgainstXsd, wellFormednessProblems } from '../support/xmllint.js';

const urlset = (body: string, ns = ''): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${ns}>\n${body}\n</urlset>\n`;
const IMAGE_NS = ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"';
const withImage = urlset(
  '<url><loc>https://blog.example.com/a/</loc><image:image><image:loc>https://blog.example.com/a.png</image:loc></image:image></url>',
  IMAGE_NS,
);

describe('the XSD validator of the tests', () => {
  it('a valid urlset validates', async () => {
    await expect(
      validateAgainstXsd(
        urlset('<url><loc>https://blog.example.com/</loc><lastmod>2026-11-21</lastmod></url>'),
        'sitemap-0.9.xsd',
      ),
    ).resolves.toContain('doc.xml validates');
  });
  it('a bad lastmod, a missing loc, a urlset against the index schema: rejected with the element named', async () => {
    await expect(
      validateAgainstXsd(
        urlset('<url><loc>https://blog.example.com/</loc><lastmod>yesterday</lastmod></url>'),
        'sitemap-0.9.xsd',
      ),
    ).rejects.toThrow(/doc\.xml does not validate against sitemap-0\.9\.xsd:[\s\S]*lastmod/);
    await expect(
      validateAgainstXsd(urlset('<url><lastmod>2026-11-21</lastmod></url>'), 'sitemap-0.9.xsd'),
    ).rejects.toThrow(
      /Element '\{http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9\}lastmod': This element is not expected\. Expected is .*loc/,
    );
    await expect(
      validateAgainstXsd(urlset('<url><loc>https://blog.example.com/</loc></url>'), 'siteindex-0.9.xsd'),
    ).rejects.toThrow(/urlset/);
  });
  it('extension elements: strict wildcards need their schemas (sitemap-with-extensions.xsd imports them)', async () => {
    await expect(validateAgainstXsd(withImage, 'sitemap-0.9.xsd')).rejects.toThrow(/image/);
    await expect(validateAgainstXsd(withImage, 'sitemap-with-extensions.xsd', 'images.xml')).resolves.toContain(
      'images.xml validates',
    );
  });
  it('an unknown schema name is an error naming the ones there are', async () => {
    await expect(validateAgainstXsd(withImage, 'sitemap-1.0.xsd')).rejects.toThrow(
      /No schema sitemap-1\.0\.xsd in .*siteindex-0\.9\.xsd/,
    );
  });
  it('well-formedness: an unclosed element and an undefined entity are reported, a good document is not', async () => {
    expect(await wellFormednessProblems('<rss><channel></rss>')).toMatch(/mismatch|not closed|Opening and ending tag/i);
    expect(await wellFormednessProblems('<rss>&uuml;</rss>')).toMatch(/uuml/);
    expect(await wellFormednessProblems(withImage)).toBe('');
  });
});
