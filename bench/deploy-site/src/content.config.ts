import { defineCollection } from 'astro:content';
import { articlesLoader } from 'astro-content-publisher/loader';
import { measured } from '../../loader-stats.mjs';

// A budget as large as the site and no reserve: the benchmark measures builds, not the plan.
// Downloads as many as the site has, like the budget: the warm build is then warm for every image.
const images = process.env.BENCH_IMAGES === 'on' ? { maxDownloads: 100_000 } : (false as const);
export const collections = {
  articles: defineCollection({
    loader: measured(articlesLoader({ budget: { maxRequests: 100_000, reserve: 0 }, images })),
  }),
};
