/**
 * The owner's links are re-pointed only on origins the service's own site answers for (issue 37, finding 7): the
 * service's address, the site home its feed declares (the channel's <link>) and the hosts that carry at least a
 * quarter of the article URLs it named. Before, one feed item (or one article fetched by the live loader) on
 * https://competitor.example/ made every page's link to https://competitor.example/blog/pricing/ point at
 * https://blog.example.com/blog/pricing/. The feed goes through the real RSS route transform, the owner's page
 * through the link middleware's response rewrite.
 */
import { describe, expect, it } from 'vitest';
import { rewriteArticleLinksResponse } from '../../src/integration/links/article-links-response.js';
import { buildRss } from '../../src/integration/proxy/feed-transform.js';
import type { RouteConfig } from '../../src/integration/settings/route-config.js';
import { noteServiceOrigins, serviceOriginsSeen } from '../../src/loader/process/service-origins.js';

const SITE = 'https://pro-blog.example.com';
const config = (siteId: number): RouteConfig => ({
  siteId,
  serviceOrigin: 'https://service.example.com',
  sitemapUrl: `https://service.example.com/api/sites/${siteId}/sitemap.xml`,
  rssUrl: `https://service.example.com/api/sites/${siteId}/rss.xml`,
  blogSite: 'https://blog.example.com/',
  articlePattern: '/blog/[slug]/',
  trailingSlash: 'ignore',
  timeoutMs: 1000,
  sitemap: { path: '/sitemap.xml', maxUrlsPerFile: 50_000 },
  rss: { path: '/rss.xml' },
  dev: false,
  localPages: [],
});

const item = (link: string) => `<item><title>t</title><link>${link}</link><guid>${link}</guid></item>`;
const feed = (links: string[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Pro Blog</title><link>${SITE}/</link><description>d</description>${links.map(item).join('')}</channel></rss>`;

async function ownerPage(siteId: number): Promise<string> {
  const page = new Response(
    '<html lang="en"><body><a href="https://competitor.example/blog/pricing/">their pricing</a> ' +
      `<a href="${SITE}/blog/a-1/">our article</a></body></html>`,
    { headers: { 'content-type': 'text/html; charset=utf-8' } },
  );
  return (await rewriteArticleLinksResponse(page, config(siteId))).text();
}

describe("the owner's links and the service's article URLs", () => {
  it('one feed item on another origin: the owner’s link there stays; links to the service’s site still go to the blog', async () => {
    const links = [
      ...Array.from({ length: 9 }, (_, i) => `${SITE}/blog/a-${i}/`),
      'https://competitor.example/blog/pricing/',
    ];
    buildRss(feed(links), config(4101));
    const html = await ownerPage(4101);
    expect(html).toContain('<a href="https://competitor.example/blog/pricing/">their pricing</a>');
    expect(html).toContain('<a href="https://blog.example.com/blog/a-1/">our article</a>');
  });

  it('article URLs the live loader noted: a host of fewer than a quarter of them is not the service’s', () => {
    noteServiceOrigins(4102, [`${SITE}/blog/a/`, `${SITE}/blog/b/`, `${SITE}/blog/c/`, `${SITE}/blog/d/`]);
    noteServiceOrigins(4102, ['https://competitor.example/blog/pricing/']);
    // The same article fetched again does not count twice.
    for (let i = 0; i < 10; i++) noteServiceOrigins(4102, ['https://competitor.example/blog/pricing/']);
    expect(serviceOriginsSeen(4102)).toEqual([SITE]);
  });
});
