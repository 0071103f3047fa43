/**
 * The services the loader model runs against: between them, every value of every simulator variant, and every
 * behaviour issue 36 lists (`docs/simulator.md`). Each has its own seed (the file's seed plus its index), so no two
 * variants replay the same sequences. `MODEL_VARIANT=<name>` (a part of the name) runs only the matching ones.
 */
import type { ServiceVariants } from '../../src/simulator/variants.js';

export interface ModelVariant {
  name: string;
  service: ServiceVariants;
  /** A real rate limit (requests per window): the loader meets 429s and the reset forms. Else 100,000 an hour. */
  rateLimit?: { requests: number; windowMs: number };
  /** Options of the loader beyond the model's defaults. */
  loader: { limit?: number };
  /** One loader per language, `en` and `fr` published (implied by `sharedSlugs`). */
  perLanguage?: boolean;
  /** Publishes in bulk, past the feed's 50 articles. */
  bulk?: boolean;
}

/** A window short enough that the model's quiet builds can wait for it. */
const REAL = { requests: 14, windowMs: 800 };

export const MODEL_VARIANTS: ModelVariant[] = [
  { name: 'current, past 50 articles', service: {}, loader: {}, bulk: true },
  {
    name: 'small list, date lastmod, teaser feed, Retry-After date, real limit',
    service: { listDefault: 5, listMax: 5, sitemapLastmod: 'date', rssContent: 'teaser', retryAfter: 'http-date' },
    rateLimit: REAL,
    loader: {},
  },
  {
    name: 'paged, no lastmod, description feed, no reset header, real limit',
    service: {
      listDefault: 4,
      listMax: 4,
      paging: 'next-count',
      sitemapLastmod: 'absent',
      rssContent: 'description',
      rateLimitReset: 'absent',
    },
    rateLimit: REAL,
    loader: {},
  },
  {
    name: 'no list cap, publication lastmod, no feed content, Retry-After 0, delta reset, real limit',
    service: {
      listDefault: 'none',
      listMax: 'none',
      sitemapLastmod: 'published',
      rssContent: 'none',
      retryAfter: 'zero',
      rateLimitReset: 'delta',
      sitemapPages: 'site',
    },
    rateLimit: REAL,
    loader: {},
  },
  { name: 'reset in epoch ms, real limit', service: { rateLimitReset: 'epoch-ms' }, rateLimit: REAL, loader: {} },
  { name: 'reset as an HTTP date, real limit', service: { rateLimitReset: 'http-date' }, rateLimit: REAL, loader: {} },
  {
    name: 'feeds from a CDN copy, page paging',
    service: { feedCdnMaxAgeSeconds: 1, listDefault: 3, listMax: 3, paging: 'page' },
    loader: {},
  },
  { name: 'two CDN edges of different ages', service: { feedStaleEdgeSeconds: 1 }, loader: {} },
  { name: 'feed cuts long bodies', service: { rssTruncateAt: 400 }, loader: {} },
  { name: 'empty sitemap, capped list', service: { sitemapState: 'empty', listDefault: 3, listMax: 3 }, loader: {} },
  {
    name: 'stale sitemap, capped list',
    service: { sitemapState: 'stale', sitemapStaleSeconds: 1, listDefault: 4, listMax: 4 },
    loader: {},
  },
  { name: 'drafts listed, their detail 404', service: { listStatuses: 'all', draftDetail: 404 }, loader: {} },
  {
    name: 'drafts listed, their detail 200, status ignored',
    service: { listStatuses: 'all', draftDetail: 200, listStatus: 'ignored' },
    loader: {},
  },
  {
    name: 'list ignores language, a loader per language',
    service: { listLanguage: 'ignored' },
    loader: {},
    perLanguage: true,
  },
  {
    name: 'list ignores limit, loader limit 3',
    service: { listLimit: 'ignored', listDefault: 20 },
    loader: { limit: 3 },
  },
  {
    name: 'multilingual, offset paging, detail ignores language',
    service: {
      sharedSlugs: true,
      rateLimitReset: 'delta',
      retryAfter: 'zero',
      listDefault: 20,
      listMax: 100,
      paging: 'offset',
    },
    loader: {},
  },
  {
    name: 'multilingual, teaser feed, detail honours language',
    service: {
      sharedSlugs: true,
      rssContent: 'teaser',
      sitemapLastmod: 'date',
      detailLanguage: 'honoured',
      listDefault: 50,
    },
    loader: {},
  },
];

/** The variants to run: all, or those whose name contains `MODEL_VARIANT`. */
export function selectedVariants(filter = process.env.MODEL_VARIANT): ModelVariant[] {
  if (!filter) return MODEL_VARIANTS;
  const chosen = MODEL_VARIANTS.filter((v) => v.name.includes(filter));
  if (chosen.length === 0)
    throw new Error(
      `MODEL_VARIANT="${filter}" names no variant. Variants:\n${MODEL_VARIANTS.map((v) => `  ${v.name}`).join('\n')}`,
    );
  return chosen;
}
