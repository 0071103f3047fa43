import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { articlesLoader } from 'astro-content-publisher/loader';
import { measured } from '../../loader-stats.mjs';

// A budget as large as the site and no reserve: the benchmark measures builds, not the plan.
// Downloads as many as the site has, like the budget: the warm build is then warm for every image.
const images = process.env.BENCH_IMAGES === 'on' ? { maxDownloads: 100_000 } : (false as const);
// BENCH_SOURCE=glob: the same pages over Astro's own glob() loader (bench/glob-floors.mjs), the floor each
// ratio has with Astro's own loader.
export const collections = {
  articles: defineCollection({
    loader:
      process.env.BENCH_SOURCE === 'glob'
        ? measured(glob({ pattern: '*.md', base: process.env.BENCH_GLOB_DIR ?? './articles' }))
        : measured(articlesLoader({ budget: { maxRequests: 100_000, reserve: 0 }, images })),
  }),
};
