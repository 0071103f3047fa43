import type { Loader, LoaderContext } from 'astro/loaders';
import { loaderKey } from '../state/fingerprint.js';
import {
  articlesLoaderOptionsSchema,
  parseContentLoaderOptions,
  type ArticlesLoaderOptions,
} from '../options/options.js';
import { LOADER_NAMES } from '../process/names.js';
import { recordPublishedArticles } from '../process/published-articles.js';
import { articleDataSchema } from '../entries/schemas.js';
import { loaderTurn } from '../budget/loader-turn.js';
import { runArticlesSync } from './sync-run.js';
import { holdStoreWrites } from '../state/store-write-hold.js';
import { readState } from '../state/state.js';
import { loadForAstro } from '../errors/astro-errors.js';

/**
 * The build-time loader of a site's published articles: one entry per article (id: the slug), sanitised HTML
 * and headings for `render(entry)`, synced incrementally within a request budget (see https://www.npmjs.com/package/astro-content-publisher#quick-start-1-a-static-blog-from-the-service).
 *
 * ```ts
 * // src/content.config.ts
 * export const collections = { articles: defineCollection({ loader: articlesLoader({ siteId: 12 }) }) };
 * ```
 * Options are validated here, once; a bad option throws a ConfigError naming it and the fix.
 */
export function articlesLoader(options: ArticlesLoaderOptions = {}) {
  const resolved = parseContentLoaderOptions(articlesLoaderOptionsSchema, 'articlesLoader', options);
  const key = loaderKey(resolved);
  return {
    name: LOADER_NAMES.articles,
    schema: articleDataSchema,
    // One budget per key: the loaders of a build that share the key take turns (ledger.ts). The log label
    // keeps the site and filters apart when a project has several articles loaders.
    load: loadForAstro(async (context: LoaderContext) =>
      loaderTurn(
        context,
        {
          name: LOADER_NAMES.articles,
          label: `${LOADER_NAMES.articles}:${key}`,
          baseUrl: resolved.baseUrl,
          apiKey: resolved.apiKey,
          siteId: resolved.siteId,
          key,
          need: 'share',
        },
        async (labelled, seeded) => {
          // One write of Astro's store at the end of the sync, not one more in the middle (store-write-hold.ts).
          const release = holdStoreWrites(context.meta, `${key}:state`);
          try {
            await runArticlesSync(labelled, resolved, key, seeded > 0);
          } finally {
            release();
          }
        },
      )?.then(() => {
        // What the collection now holds is what the integration's sitemap, feed and article links name.
        const { state } = readState(context.meta.get(`${key}:state`));
        recordPublishedArticles(context, resolved.siteId, state.unpublished, resolved.language ?? '', state.moved);
      }),
    ),
  } satisfies Loader;
}
