import type { LiveLoader } from 'astro/loaders';
import { createClient, NotFoundError, type ArticleDetail, type ArticleListItem, type ArticleQuery, type PublisherError } from '../client/index.js';
import { sanitizeArticle, type Heading } from '../html/index.js';
import { dataFromDetail, listFields, toDate } from './entries.js';
import { parseOptions, withEnvDefaults, type LiveArticlesLoaderOptions } from './options.js';
import { liveApiKey, liveLoaderConstructionSchema } from './astro-secret.js';

/** Filters of `getLiveCollection('articles', filter)`: the list call's own query parameters (the client's type). */
export type LiveArticlesFilter = ArticleQuery;

/** `getLiveEntry('articles', 'my-slug')` passes `{ id }`; `{ slug }` is accepted too. */
export interface LiveArticleEntryFilter {
  id?: string;
  slug?: string;
}

/** Live entry data: the article fields, plus `headings` (live entries carry only `rendered.html`). */
export type LiveArticleData = Record<string, unknown> & { slug: string; title: string; headings?: Heading[] };

function listItemOf(detail: ArticleDetail): ArticleListItem {
  return {
    ...detail,
    status: detail.status ?? 'published',
    language: detail.language ?? '',
    published_at: detail.published_at ?? '',
    view_count: detail.view_count ?? 0,
  };
}

/**
 * A live loader (Astro live collections, `src/live.config.ts`) for on-demand pages: every call is one
 * authenticated request, so cache the pages (the entries carry cache hints: `lastModified` and tags).
 * Errors come back as values (`{ error }`) as Astro expects; an unknown slug gives `undefined` (not found).
 */
export function liveArticlesLoader(options: LiveArticlesLoaderOptions = {}): LiveLoader<LiveArticleData, LiveArticleEntryFilter, LiveArticlesFilter, PublisherError> {
  const opts = parseOptions(liveLoaderConstructionSchema, 'liveArticlesLoader', withEnvDefaults({ ...options }));
  // The key is read at the first request (astro:env's getSecret, then process.env): edge adapters have no environment at import.
  let pending: Promise<ReturnType<typeof createClient>> | undefined;
  const connect = () => (pending ??= liveApiKey(opts.apiKey).then(
    (apiKey) => createClient({ baseUrl: opts.baseUrl, apiKey, timeoutMs: opts.timeoutMs, userAgent: 'astro-content-publisher (liveArticlesLoader)' }),
    (error: unknown) => {
      pending = undefined; // a key set later (a new deployment's secret) is picked up by the next request
      throw error;
    },
  ));
  const siteTag = `publisher:site-${opts.siteId}`;
  return {
    name: `astro-content-publisher:live-articles:site-${opts.siteId}`,
    async loadCollection({ filter }) {
      try {
        const query = Object.fromEntries(Object.entries({
          status: filter?.status ?? opts.status,
          language: filter?.language ?? opts.language,
          limit: filter?.limit ?? opts.limit,
        }).filter(([, v]) => v !== undefined));
        const items = await (await connect()).articles(opts.siteId, query);
        const entries = items.map((item) => {
          const data = { ...item, ...listFields(item) };
          return { id: item.slug, data, cacheHint: { tags: [siteTag, `${siteTag}:${item.slug}`] } };
        });
        const newest = items.map((i) => toDate(i.published_at)?.getTime() ?? 0).reduce((a, b) => Math.max(a, b), 0);
        return { entries, cacheHint: { tags: [siteTag], ...(newest ? { lastModified: new Date(newest) } : {}) } };
      } catch (error) {
        return { error: error as PublisherError };
      }
    },
    async loadEntry({ filter }) {
      const slug = filter.slug ?? filter.id ?? '';
      try {
        const detail = await (await connect()).article(opts.siteId, slug);
        const data = dataFromDetail(listItemOf(detail), detail);
        const url = typeof data.url === 'string' ? data.url : undefined;
        const { html, headings } = sanitizeArticle(detail.content, { ...(opts.sanitize ? { sanitize: opts.sanitize } : {}), ...(url ? { articleUrl: url } : {}) });
        const lastModified = toDate(detail.updated_at);
        return {
          id: detail.slug,
          data: { ...data, slug: detail.slug, title: detail.title, headings },
          rendered: { html },
          cacheHint: { tags: [siteTag, `${siteTag}:${detail.slug}`], ...(lastModified ? { lastModified } : {}) },
        };
      } catch (error) {
        if (error instanceof NotFoundError) return undefined;
        return { error: error as PublisherError };
      }
    },
  };
}
