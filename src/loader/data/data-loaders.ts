import type { Loader, LoaderContext } from 'astro/loaders';
import { safeEntryData } from '../entries/entry-safety.js';
import type { Client } from '../../client/index.js';
import { createClientWithHints } from '../../client/client.js';
import { LOADER_HINTS } from '../budget/clients.js';
import { toDate } from '../entries/entries.js';
import { shortHash, stableStringify } from '../state/fingerprint.js';
import {
  dataLoaderOptionsSchema,
  parseContentLoaderOptions,
  type DataLoaderOptions,
  type ResolvedDataLoaderOptions,
} from '../options/options.js';
import { knownRemaining, recordRemaining, restoreWindow, saveWindow } from '../budget/rate-window.js';
import { omit } from '../entries/records.js';
import { LOADER_NAMES } from '../process/names.js';
import { loaderTurn } from '../budget/loader-turn.js';
import { loadForAstro } from '../errors/astro-errors.js';
import { digestDataSchema, keywordDataSchema, type DigestData, type KeywordData } from '../entries/schemas.js';
import { isTransient } from '../errors/transient.js';
import { describeError, makeWarn } from '../errors/warnings.js';

/**
 * Data collections for SEO dashboards: the tracked keywords and the weekly digest. At most one request per
 * build, under the same budget as the articles: none while the stored copy is younger than `maxAgeMinutes`,
 * none when the last X-RateLimit-Remaining seen for this key is at or below `budget.reserve`; a failed
 * request is not retried and keeps the stored copy.
 */

/** The names the loader gives a record's known fields: those of its schema, so the two cannot drift apart. */
type Named<T> = { [K in keyof T as string extends K ? never : K]-?: unknown };

interface DataSource {
  what: string;
  fetch(client: Client, siteId: number): Promise<Array<{ id: string; data: Record<string, unknown> }>>;
}

const keywordsSource: DataSource = {
  what: 'keywords',
  async fetch(client, siteId) {
    const seen = new Map<string, number>();
    return (await client.keywords(siteId)).map((record, index) => {
      const base = record.keyword ?? `keyword-${index + 1}`;
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      return {
        id: count === 1 ? base : `${base}-${count}`,
        data: {
          ...omit(record, ['previous_position', 'updated_at']),
          keyword: base,
          position: record.position ?? null,
          previousPosition: record.previous_position ?? null,
          url: record.url ?? null,
          volume: record.volume ?? null,
          updatedAt: toDate(record.updated_at) ?? null,
        } satisfies Named<KeywordData>,
      };
    });
  },
};

const digestSource: DataSource = {
  what: 'weekly digest',
  async fetch(client, siteId) {
    const digest = await client.digest(siteId);
    return [
      {
        id: 'latest',
        data: {
          ...omit(digest, ['average_audit_score', 'position_movements']),
          averageAuditScore: digest.average_audit_score ?? null,
          positionMovements: digest.position_movements ?? [],
          alerts: digest.alerts ?? [],
        } satisfies Omit<Named<DigestData>, 'week' | 'publications'>,
      },
    ];
  },
};

async function runDataSync(
  ctx: LoaderContext,
  opts: ResolvedDataLoaderOptions,
  source: DataSource,
  key: string,
  loaderName: string,
): Promise<void> {
  const { store, meta, logger } = ctx;
  const warn = makeWarn(logger, opts.strict);
  const fetchedAt = Number(meta.get(`${key}:fetchedAt`) ?? 0);
  const stored = store.keys().length;
  if (stored > 0 && opts.maxAgeMinutes > 0 && Date.now() - fetchedAt < opts.maxAgeMinutes * 60_000) {
    logger.info(
      `${source.what} of site ${opts.siteId}: kept the stored copy (fetched ${Math.round((Date.now() - fetchedAt) / 60_000)} min ago, maxAgeMinutes ${opts.maxAgeMinutes}); 0 requests`,
    );
    return;
  }
  // The budget: one request at most (a data loader has nothing else to spend), and never into the reserve
  // that other loaders of this build, a watcher or the CLI have already seen shrinking.
  const cacheDir: URL | undefined = ctx.config?.cacheDir;
  const restored = restoreWindow(cacheDir, opts.baseUrl, opts.apiKey);
  const remaining = knownRemaining(opts.baseUrl, opts.apiKey);
  if (remaining !== undefined && remaining <= opts.budget.reserve) {
    const kept =
      stored > 0
        ? `Kept the ${stored} stored entr${stored === 1 ? 'y' : 'ies'}`
        : 'Nothing is stored yet, so the collection stays empty';
    warn(
      `Did not fetch the ${source.what} of site ${opts.siteId}: only ${remaining} request(s) left this hour, at or below budget.reserve (${opts.budget.reserve})${restored ? ` (${restored})` : ''}. ${kept}; the first build after the hourly limit resets fetches it again${remaining > 0 ? ` (or lower ${loaderName}({ budget: { reserve } }))` : ''}.`,
    );
    return;
  }
  // Exactly one request: no retry, no waiting on a 429, for data that can wait until the next build.
  const client = createClientWithHints(
    {
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      timeoutMs: opts.timeoutMs,
      allowInsecureHttp: opts.allowInsecureHttp,
      retries: 0,
      maxRetryAfterMs: 0,
      userAgent: 'astro-content-publisher (data loader)',
    },
    LOADER_HINTS,
  );
  let entries: Array<{ id: string; data: Record<string, unknown> }>;
  try {
    entries = await source.fetch(client, opts.siteId);
  } catch (error) {
    recordRemaining(opts.baseUrl, opts.apiKey, client.rateLimit);
    saveWindow(cacheDir, opts.baseUrl, opts.apiKey);
    if (stored === 0 || !isTransient(error)) throw error;
    warn(
      `Could not fetch the ${source.what} of site ${opts.siteId}: ${describeError(error)} Kept the stored copy; the next build tries again.`,
      error,
    );
    return;
  }
  recordRemaining(opts.baseUrl, opts.apiKey, client.rateLimit);
  saveWindow(cacheDir, opts.baseUrl, opts.apiKey);
  const hash = shortHash(stableStringify(entries));
  if (hash !== meta.get(`${key}:hash`) || stored === 0) {
    const ids = new Set(entries.map((e) => e.id));
    for (const id of store.keys()) if (!ids.has(id)) store.delete(id);
    for (const entry of entries) {
      const data = await ctx.parseData({ id: entry.id, data: safeEntryData(entry.data, opts.apiKey, 'null') });
      store.set({ id: entry.id, data, digest: ctx.generateDigest(stableStringify(data)) });
    }
    meta.set(`${key}:hash`, hash);
  }
  meta.set(`${key}:fetchedAt`, String(Date.now()));
  const left = client.rateLimit ? `${client.rateLimit.remaining} left this hour` : 'rate limit unknown';
  logger.info(
    `${source.what} of site ${opts.siteId}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}; ${client.requestCount} request${client.requestCount === 1 ? '' : 's'}, ${left}`,
  );
}

/** What tells the two data loaders apart: the name users call, the store's name and key, and the call. */
interface DataLoaderKind {
  call: 'keywordsLoader' | 'digestLoader';
  name: string;
  key: string;
  source: DataSource;
}

/** The `load` of a data loader of `kind`, its options read (and refused with the loader's name) at once. */
function dataLoad(kind: DataLoaderKind, options: DataLoaderOptions): Loader['load'] {
  const resolved = parseContentLoaderOptions(dataLoaderOptionsSchema, kind.call, options);
  const key = `site-${resolved.siteId}:${kind.key}`;
  return loadForAstro(async (context: LoaderContext) =>
    loaderTurn(
      context,
      {
        name: kind.name,
        label: `${kind.name}:site-${resolved.siteId}`,
        baseUrl: resolved.baseUrl,
        apiKey: resolved.apiKey,
        siteId: resolved.siteId,
        key,
        need: 'one',
      },
      (labelled) => runDataSync(labelled, resolved, kind.source, key, kind.call),
    ),
  );
}

const KEYWORDS: DataLoaderKind = {
  call: 'keywordsLoader',
  name: LOADER_NAMES.keywords,
  key: 'keywords',
  source: keywordsSource,
};
const DIGEST: DataLoaderKind = { call: 'digestLoader', name: LOADER_NAMES.digest, key: 'digest', source: digestSource };

/** The tracked keywords of a site with their positions, one entry per keyword (id: the keyword). */
export function keywordsLoader(options: DataLoaderOptions = {}) {
  return { name: LOADER_NAMES.keywords, schema: keywordDataSchema, load: dataLoad(KEYWORDS, options) } satisfies Loader;
}

/** The weekly digest of a site as one entry, id `latest`: `getEntry('digest', 'latest')`. */
export function digestLoader(options: DataLoaderOptions = {}) {
  return { name: LOADER_NAMES.digest, schema: digestDataSchema, load: dataLoad(DIGEST, options) } satisfies Loader;
}
