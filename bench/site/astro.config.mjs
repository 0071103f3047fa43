// The benchmark blog: the same pages over either the service (articlesLoader) or local Markdown files
// (Astro's glob loader), chosen by BENCH_SOURCE, so the two builds differ only in where content comes from.
import { defineConfig } from 'astro/config';
import publisher from 'astro-content-publisher';

export default defineConfig({
  site: 'https://blog.example.com',
  trailingSlash: 'always',
  integrations: [publisher({ siteId: Number(process.env.PUBLISHER_SITE_ID), baseUrl: process.env.PUBLISHER_BASE_URL })],
});
