import { defineCollection } from 'astro:content';
import { articlesLoader, digestLoader, keywordsLoader } from 'astro-content-publisher/loaders';
import { playgroundSettings } from '../settings.mjs';

// The key is read by the loaders from PUBLISHER_API_KEY: it never appears in this file or the output.
const { siteId, baseUrl, budget } = playgroundSettings();

export const collections = {
  articles: defineCollection({ loader: articlesLoader({ siteId, baseUrl, ...(budget ? { budget } : {}) }) }),
  keywords: defineCollection({ loader: keywordsLoader({ siteId, baseUrl }) }),
  digest: defineCollection({ loader: digestLoader({ siteId, baseUrl }) }),
};
