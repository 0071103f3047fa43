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
    : defineCollection({ loader: measured(articlesLoader({ budget: { maxRequests: 100_000, reserve: 0 } })) });

export const collections = { articles };
