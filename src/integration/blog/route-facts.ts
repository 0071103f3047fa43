import type { IntegrationResolvedRoute } from 'astro';
import type { BlogLayout } from '../../html/article-links.js';
import { routeIsArticlePage } from './conflicts.js';

/**
 * What the blog's resolved routes say about the pages it serves: read when the routes are bundled (`pageRoutes`,
 * in the routes' config) and when the build is done.
 */
export interface PageRouteFacts {
  /** A build's page routes and article endpoints (RouteConfig.pageRoutes); undefined outside a build. */
  pageRoutes: string[] | undefined;
  /** The blog's page routes with a parameter (`/blog/[slug]`): named when the articles' pages were not found. */
  parameterRoutes: string[];
  /** The page routes that render on demand (they serve pages a static build did not write). */
  onDemandPages: string[];
  /** The i18n fallback routes of prerendered routes (RouteConfig.fallbackPages). */
  fallbackPages: string[];
  /** The patterns of the blog's prerendered endpoints: the HTML pages they write are pages it serves. */
  endpointRoutes: Set<string>;
}

/** At astro:routes:resolved: the page routes' patterns as the build's checks need them. Pure. */
export function pageRouteFacts(
  routes: readonly IntegrationResolvedRoute[],
  layout: Pick<BlogLayout, 'articlePattern'>,
  isBuild: boolean,
): PageRouteFacts {
  const blogPages = routes.filter((r) => r.type === 'page' && r.origin !== 'internal');
  // An endpoint that renders articles' HTML serves them too (routeIsArticlePage).
  const articleEndpoints = routes.filter((r) => r.type === 'endpoint' && routeIsArticlePage(r, layout));
  const served = [...blogPages, ...articleEndpoints];
  // A catch-all at the root (`[...path]`) renders whatever it is asked: it serves no page known to exist.
  const catchAll = (r: IntegrationResolvedRoute) => r.segments[0]?.length === 1 && r.segments[0][0]!.spread;
  return {
    pageRoutes: isBuild ? served.map((r) => r.patternRegex.source) : undefined,
    parameterRoutes: blogPages.filter((r) => r.origin === 'project' && r.params.length > 0).map((r) => r.pattern),
    onDemandPages: served.filter((r) => !r.isPrerendered && !catchAll(r)).map((r) => r.patternRegex.source),
    fallbackPages: routes
      .filter((r) => r.isPrerendered)
      .flatMap((r) => r.fallbackRoutes.map((f) => f.patternRegex.source)),
    endpointRoutes: new Set(
      routes.filter((r) => r.type === 'endpoint' && r.isPrerendered && r.origin !== 'internal').map((r) => r.pattern),
    ),
  };
}
