import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { articlesLoader } from 'astro-content-publisher/loader';
import { measured } from '../../loader-stats.mjs';

// The benchmark measures the loader, not the plan: a budget as large as the site, no reserve.
const articles =
  process.env.BENCH_SOURCE === 'glob'
    ? defineCollection({
        loader: measured(glob({ pattern: '*.md', base: process.env.BENCH_GLOB_DIR ?? './articles' })),
      })
    : defineCollection({
        // Images off: glob() leaves the Markdown's remote images alone, so the comparison is like for like
        // (bench/deploy.mjs measures the image step). With them on, each "warm" build fetched up to
        // images.maxDownloads more of the 3,000 images and rewrote those articles: not a warm build.
        loader: measured(articlesLoader({ budget: { maxRequests: 100_000, reserve: 0 }, images: false })),
      });

export const collections = { articles };
