// One place that reads the playground's environment, shared by astro.config.mjs and src/content.config.ts.
// Kept free of Astro imports so that plain Node scripts (demo, tests, bench) can use it too.

/**
 * @returns {{ siteId: number, baseUrl: string | undefined, site: string, budget: { maxRequests: number } | undefined, images: { maxDownloads: number } | undefined }}
 */
export function playgroundSettings(env = process.env) {
  const rawSiteId = env.PUBLISHER_SITE_ID;
  const siteId = Number(rawSiteId);
  if (!rawSiteId || !Number.isInteger(siteId) || siteId <= 0) {
    throw new Error(
      `[playground] PUBLISHER_SITE_ID must be a positive integer (got ${JSON.stringify(rawSiteId ?? '')}). ` +
        'Run `npm run demo` (it starts a local simulator and sets it), or export PUBLISHER_SITE_ID, ' +
        'PUBLISHER_BASE_URL and PUBLISHER_API_KEY for a real account.',
    );
  }
  // PLAYGROUND_MAX_REQUESTS raises the loader's per-build request budget (default 20, sized for a Pro plan);
  // the demo sets it so that a cold build against the simulator loads every article at once.
  const maxRequests = Number(env.PLAYGROUND_MAX_REQUESTS);
  // PLAYGROUND_MAX_IMAGE_DOWNLOADS raises the image downloads per build (default 500); the demo sets it so that
  // the first build localises every image of the simulator's site.
  const maxDownloads = Number(env.PLAYGROUND_MAX_IMAGE_DOWNLOADS);
  return {
    siteId,
    budget: Number.isInteger(maxRequests) && maxRequests > 0 ? { maxRequests } : undefined,
    images: Number.isInteger(maxDownloads) && maxDownloads > 0 ? { maxDownloads } : undefined,
    baseUrl: env.PUBLISHER_BASE_URL || undefined,
    // The blog's own origin: the URLs in /sitemap.xml and /rss.xml point here.
    site: env.PLAYGROUND_SITE || 'http://localhost:4321',
  };
}
