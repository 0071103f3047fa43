// The playground blog: configured the way a user configures a real blog.
// PUBLISHER_BASE_URL / PUBLISHER_API_KEY / PUBLISHER_SITE_ID point it at an account; `npm run demo`
// (playground/scripts/demo.mjs) sets them to an embedded simulator when they are not set.
import { defineConfig } from 'astro/config';
import publisher from 'astro-content-publisher';
import { playgroundSettings } from './settings.mjs';

const { siteId, baseUrl, site } = playgroundSettings();

export default defineConfig({
  // The sitemap and RSS routes rewrite every upstream URL to this origin, so it must be set.
  site,
  trailingSlash: 'always',
  integrations: [publisher({ siteId, baseUrl })],
  // Article images are optimised by Astro and served from the blog when their host is allowed here: the
  // service's image host (the simulator serves its images itself, so its host is the API's).
  image: { domains: baseUrl ? [new URL(baseUrl).hostname] : [] },
  // Pages return a cacheKey from getStaticPaths (entry.digest, listCacheKey): a rebuild renders only the
  // pages whose content changed; the others are copied from Astro's cache (README, "Incremental rebuilds").
  experimental: { incrementalBuild: true },
});
