/**
 * In-article links of pages that an incremental build keeps (their `cacheKey`, the entry's digest, did not
 * change), by real builds of the model site (`/[lang]/blog/[slug]/`, one loader per language): a link that an
 * earlier build pointed at the blog's page of an article goes back to the service once the blog no longer
 * has that article in that language, never to a page the build did not write (found by the site model test:
 * `/en/blog/<slug>/` answered 404 while the blog had `<slug>` only in fr); and when the service no longer
 * publishes it either, the link loses its address (its text stays), rather than name the service's dead page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { admin, closedAfterEach, isolatedSite, modelSiteBuild, publishModelArticle } from './loader-harness.js';

vi.setConfig({ testTimeout: 300_000 });
const own = closedAfterEach();

const SERVICE = 'https://pro-blog.example.com';
const BLOG = 'https://blog.example.com';

/** The links inside a built article page's body: each one's href, or its text when it has none. */
async function linksOf(outDir: string, page: string): Promise<string[]> {
  const html = await readFile(join(outDir, page, 'index.html'), 'utf8');
  const body = /<div class="body">([\s\S]*)<\/div>\s*<\/article>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<a\b([^>]*)>([^<]*)<\/a>/g)].map((m) => {
    const href = /\shref="([^"]*)"/.exec(m[1]!)?.[1];
    return href === undefined ? `(no href) ${m[2]}` : href.replaceAll('&amp;', '&');
  });
}

describe('links of pages kept by an incremental build', () => {
  it('a link to an article the blog no longer has in that language goes back to the service, or loses its address when the service dropped it too', async () => {
    const sim = await startSimulator({ articles: 0, rateLimitOverride: 100_000, variants: { sharedSlugs: true } });
    const site = await isolatedSite('model-site', 'kept-links');
    own(sim, site);
    const publish = (slug: string, language: string, content: string) =>
      publishModelArticle(sim.url, slug, language, { after: content });
    // "pair" in en and fr, "solo" in en only; "page" (en) links to en "pair", to "solo" and to "other" (an article
    // the blog never had, on the service).
    await publish('pair', 'en', '');
    await publish('pair', 'fr', '');
    await publish('solo', 'en', '');
    // One more in en: removing two of four is not a mass removal (more than half at once, which the loader withholds).
    await publish('more', 'en', '');
    await publish(
      'page',
      'en',
      `<p><a href="${SERVICE}/en/blog/pair/">pair</a> <a href="${SERVICE}/en/blog/solo/#top">solo</a> <a href="${SERVICE}/en/blog/other/">other</a></p>`,
    );
    const build = modelSiteBuild(site, sim);

    const first = await build();
    expect(first.error).toBeUndefined();
    expect(await linksOf(site.outDir, 'en/blog/page')).toEqual([
      `${BLOG}/en/blog/pair/`,
      `${BLOG}/en/blog/solo/#top`,
      `${SERVICE}/en/blog/other/`,
    ]);

    // en "pair" and "solo" leave the service; "page" does not change, so the build keeps its page as it was.
    await admin(sim.url, 'DELETE', 'articles/12/pair?language=en');
    await admin(sim.url, 'DELETE', 'articles/12/solo?language=en');
    const second = await build();
    expect(second.error).toBeUndefined();
    expect(second.logs).toMatch(/\/en\/blog\/page\/index\.html \(restored\)/);
    expect(second.logs).toMatch(/lang-en\] 2 articles: 0 new, 0 changed, 2 removed/);
    expect(existsSync(join(site.outDir, 'en/blog/pair/index.html'))).toBe(false);
    expect(existsSync(join(site.outDir, 'fr/blog/pair/index.html'))).toBe(true);
    // No link names a page that answers 404: the two articles the service dropped keep only their text (before,
    // they went back to the service's URL, which answers 404 too); the one never loaded stays as it was.
    expect(await linksOf(site.outDir, 'en/blog/page')).toEqual([
      '(no href) pair',
      '(no href) solo',
      `${SERVICE}/en/blog/other/`,
    ]);
  });

  it('an edit of two articles: the end-of-build pass has the same inputs as the build before, so the pages kept since are not read again', async () => {
    const sim = await startSimulator({ articles: 0, rateLimitOverride: 100_000, variants: { sharedSlugs: true } });
    const site = await isolatedSite('model-site', 'kept-record');
    own(sim, site);
    // en "b" is the longer: the fr loader's only detail (b answers en) shows the feed whole for copies no longer
    // than it, so the fr article lives on its feed copy (evidence.ts feedCopyProvenWhole).
    for (const slug of ['a', 'b', 'c', 'd'])
      await publishModelArticle(sim.url, slug, 'en', {
        after: slug === 'b' ? `<p>${'More text. '.repeat(20)}</p>` : '',
      });
    await publishModelArticle(sim.url, 'b', 'fr', { after: `<p><a href="${SERVICE}/blog/c/">c</a></p>` });
    // The guide's setting for incremental builds: Astro leaves the pages it keeps untouched.
    const build = modelSiteBuild(site, sim, 10, { vite: { build: { emptyOutDir: false } } });
    const record = () =>
      JSON.parse(readFileSync(join(site.cacheDir, 'astro-content-publisher', 'built-links.json'), 'utf8')) as {
        fingerprint: string;
        pages: Record<string, [number, number]>;
      };

    expect((await build()).error).toBeUndefined();
    const before = record();
    expect(Object.keys(before.pages)).toContain('fr/blog/b/index.html');
    // The first and the last article change: the loader stores each again, last in its record.
    await admin(sim.url, 'PATCH', 'articles/12/a?language=en', { title: 'a en, edited' });
    await admin(sim.url, 'PATCH', 'articles/12/d?language=en', { title: 'd en, edited' });
    const second = await build();
    expect(second.error).toBeUndefined();
    expect(await readFile(join(site.outDir, 'en/blog/a/index.html'), 'utf8')).toContain('a en, edited');
    const after = record();
    expect(after.fingerprint).toBe(before.fingerprint);
    // The article pages no edit touched are as the first pass left them (Astro kept them; the pass read none).
    for (const page of ['en/blog/b/index.html', 'en/blog/c/index.html', 'fr/blog/b/index.html'])
      expect(after.pages[page], page).toEqual(before.pages[page]);
    expect(after.pages['en/blog/a/index.html']).not.toEqual(before.pages['en/blog/a/index.html']);
    // The kept French page still links to c's page on the blog.
    expect(await linksOf(site.outDir, 'fr/blog/b')).toEqual([`${BLOG}/en/blog/c/`]);
  });
});
