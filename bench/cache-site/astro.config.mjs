// The on-demand benchmark blog (bench/edit-to-served.mjs): article pages rendered per request through
// liveArticlesLoader and kept in Astro's route cache (memoryCache on @astrojs/node) until invalidated by tag.
import { defineConfig, memoryCache } from 'astro/config';
import node from '@astrojs/node';
import publisher from 'astro-content-publisher';

const DAY = 86_400;
export default defineConfig({
  site: 'https://blog.example.com',
  trailingSlash: 'always',
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  cache: { provider: memoryCache() },
  routeRules: {
    '/': { maxAge: DAY },
    '/blog/[slug]': { maxAge: DAY },
    '/sitemap.xml': { maxAge: DAY },
    '/rss.xml': { maxAge: DAY },
  },
  integrations: [
    publisher({
      siteId: Number(process.env.PUBLISHER_SITE_ID),
      baseUrl: process.env.PUBLISHER_BASE_URL,
      invalidate: true,
    }),
  ],
});
