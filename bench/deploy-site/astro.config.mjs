// The deploy benchmark's blog (bench/deploy.mjs): incremental builds and the image step switched by the
// environment, so that each build chain (its own cacheDir) differs from the others in one thing only. The
// integration is on, as the README sets a blog up: its sitemap, feed and link passes are part of each build.
import { defineConfig } from 'astro/config';
import publisher from 'astro-content-publisher';

const incremental = process.env.BENCH_INCREMENTAL === '1';
export default defineConfig({
  site: 'https://blog.example.com',
  trailingSlash: 'always',
  integrations: [publisher({ siteId: Number(process.env.PUBLISHER_SITE_ID), baseUrl: process.env.PUBLISHER_BASE_URL })],
  image: { domains: process.env.BENCH_IMAGES === 'on' ? ['127.0.0.1'] : [] },
  ...(incremental ? { experimental: { incrementalBuild: true }, vite: { build: { emptyOutDir: false } } } : {}),
});
