import { defineCollection } from 'astro:content';
import { articlesLoader, digestLoader, keywordsLoader } from 'astro-content-publisher/loaders';
import { playgroundSettings } from '../settings.mjs';

// The key is read by the loaders from PUBLISHER_API_KEY: it never appears in this file or the output.
const { siteId, baseUrl, budget, images } = playgroundSettings();

// Keyword positions and the weekly digest change at most daily: a rebuild within the hour reuses the stored
// copy (no request), so a warm build costs the articles' one list call.
const maxAgeMinutes = 60;

export const collections = {
  articles: defineCollection({
    loader: articlesLoader({ siteId, baseUrl, ...(budget ? { budget } : {}), ...(images ? { images } : {}) }),
  }),
  keywords: defineCollection({ loader: keywordsLoader({ siteId, baseUrl, maxAgeMinutes }) }),
  digest: defineCollection({ loader: digestLoader({ siteId, baseUrl, maxAgeMinutes }) }),
};
