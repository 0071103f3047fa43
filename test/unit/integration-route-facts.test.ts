import type { IntegrationResolvedRoute } from 'astro';
import { describe, expect, it } from 'vitest';
import { pageRouteFacts } from '../../src/integration/blog/route-facts.js';
import { routeSegments } from '../support/route-segments.js';

/** A resolved route as Astro gives it to astro:routes:resolved, with only what pageRouteFacts reads. */
function route(
  pattern: string,
  fields: Partial<Pick<IntegrationResolvedRoute, 'type' | 'origin' | 'isPrerendered' | 'fallbackRoutes'>> = {},
): IntegrationResolvedRoute {
  const segments = routeSegments(pattern);
  return {
    pattern,
    patternRegex: new RegExp(`^${pattern.replace(/\[[^\]]+\]/g, '[^/]+')}/?$`),
    segments,
    params: segments
      .flat()
      .filter((p) => p.dynamic)
      .map((p) => p.content),
    type: 'page',
    origin: 'project',
    isPrerendered: true,
    fallbackRoutes: [],
    entrypoint: `src/pages${pattern}.astro`,
    ...fields,
  } as unknown as IntegrationResolvedRoute;
}

// Article pages written by endpoints as HTML files, in two languages.
const layout = { articlePattern: { en: '/blog/[slug].html', fr: '/fr/blog/[slug].html' } };
const sources = (...patterns: string[]) => patterns.map((pattern) => route(pattern).patternRegex.source);

describe('pageRouteFacts: what the routes say about the pages the blog serves', () => {
  const routes = [
    route('/'),
    route('/blog/[slug]', { isPrerendered: false }),
    // An endpoint written as the pattern's HTML file serves article pages (prerendered or on demand); one
    // answering JSON does not.
    route('/blog/[slug].html', { type: 'endpoint' }),
    route('/fr/blog/[slug].html', { type: 'endpoint', isPrerendered: false }),
    route('/blog/[slug].json', { type: 'endpoint', isPrerendered: false }),
    route('/feed/[slug].json', { type: 'endpoint' }),
    // A catch-all at the root renders whatever it is asked: no page is known to exist there. Below the root,
    // it serves its folder's pages.
    route('/[...path]', { isPrerendered: false }),
    route('/docs/[...path]', { isPrerendered: false }),
    // i18n fallbacks count for prerendered routes only (on demand, the route itself answers).
    route('/fr/about', { fallbackRoutes: [route('/es/about')] }),
    route('/de/contact', { isPrerendered: false, fallbackRoutes: [route('/at/contact')] }),
    // Astro's own routes are not the blog's; an external (integration's) page is, without being a parameter route.
    route('/_image', { type: 'endpoint', origin: 'internal' }),
    route('/404', { origin: 'internal' }),
    route('/ext/[id]', { origin: 'external' }),
  ];
  const facts = pageRouteFacts(routes, layout, true);

  it('on-demand pages: page routes and article endpoints that render on demand, not a root catch-all', () => {
    expect(facts.onDemandPages).toEqual(
      sources('/blog/[slug]', '/docs/[...path]', '/de/contact', '/fr/blog/[slug].html'),
    );
  });

  it('page routes of a build: every page route of the blog and the article endpoints; none outside a build', () => {
    expect(facts.pageRoutes).toEqual(
      sources(
        '/',
        '/blog/[slug]',
        '/[...path]',
        '/docs/[...path]',
        '/fr/about',
        '/de/contact',
        '/ext/[id]',
        '/blog/[slug].html',
        '/fr/blog/[slug].html',
      ),
    );
    expect(pageRouteFacts(routes, layout, false).pageRoutes).toBeUndefined();
  });

  it('parameter routes of the project, fallbacks of prerendered routes, prerendered endpoints of the blog', () => {
    expect(facts.parameterRoutes).toEqual(['/blog/[slug]', '/[...path]', '/docs/[...path]']);
    expect(facts.fallbackPages).toEqual(sources('/es/about'));
    expect([...facts.endpointRoutes]).toEqual(['/blog/[slug].html', '/feed/[slug].json']);
  });
});
