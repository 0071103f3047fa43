import { defineCollection } from 'astro:content';
import { articlesLoader } from 'astro-content-publisher/loader';

// A budget as large as the site and no reserve: the benchmark measures builds, not the plan.
const images = process.env.BENCH_IMAGES === 'on' ? {} : (false as const);
export const collections = { articles: defineCollection({ loader: articlesLoader({ budget: { maxRequests: 100_000, reserve: 0 }, images }) }) };
