import type { IntegrationResolvedRoute } from 'astro';
import { describe, expect, it } from 'vitest';
import { pageRouteFacts } from '../../src/integration/route-facts.js';
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

const layout = { articlePattern: '/blog/[slug].html' };

describe('pageRouteFacts: what the routes say about the pages the blog serves', () => {
  const routes = [
    route('/'),
    route('/blog/[slug]', { isPrerendered: false }),
    // An endpoint written as the pattern's HTML file serves article pages; a JSON one does not.
    route('/blog/[slug].html', { type: 'endpoint' }),
    route('/api/[slug].json', { type: 'endpoint', isPrerendered: false }),
    // A catch-all at the root renders whatever it is asked: no page is known to exist there.
    route('/[...path]', { isPrerendered: false }),
    route('/fr/about', { fallbackRoutes: [route('/es/about')] }),
    route('/_image', { type: 'endpoint', origin: 'internal' }),
  ];
  const facts = pageRouteFacts(routes, layout, true);

  it('on-demand pages: page routes and article endpoints that render on demand, not a root catch-all', () => {
    expect(facts.onDemandPages).toEqual([route('/blog/[slug]').patternRegex.source]);
  });

  it('page routes of a build: every page route of the blog and the article endpoints; none outside a build', () => {
    expect(facts.pageRoutes).toHaveLength(5);
    expect(facts.pageRoutes).toContain(route('/blog/[slug].html').patternRegex.source);
    expect(facts.pageRoutes).not.toContain(route('/api/[slug].json').patternRegex.source);
    expect(pageRouteFacts(routes, layout, false).pageRoutes).toBeUndefined();
  });

  it('parameter routes, fallbacks and prerendered endpoints of the blog (not Astro’s own)', () => {
    expect(facts.parameterRoutes).toEqual(['/blog/[slug]', '/[...path]']);
    expect(facts.fallbackPages).toEqual([route('/es/about').patternRegex.source]);
    expect([...facts.endpointRoutes]).toEqual(['/blog/[slug].html']);
  });
});
