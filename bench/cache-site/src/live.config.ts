import { defineLiveCollection } from 'astro:content';
import { liveArticlesLoader } from 'astro-content-publisher/loader';

// siteId, baseUrl and the key from the server's environment (PUBLISHER_SITE_ID, _BASE_URL, _API_KEY).
export const collections = { articles: defineLiveCollection({ loader: liveArticlesLoader() }) };
