import type { LoaderContext } from 'astro/loaders';

/**
 * What each articles collection holds after its load (the loader's filters and budget applied), on a global
 * registry that the integration reads when it bundles its routes and writes the sitemap: the one answer to
 * "does the blog have this article?". A global symbol, not a module variable, because the content config
 * and the integration may load two copies of the package (Vite's module graph and Node's); both run in the
 * build's process, the load before the routes are bundled.
 */
export const PUBLISHED_ARTICLES_REGISTRY = Symbol.for('astro-content-publisher.published-articles');

/** One collection's articles: ids are the service's slugs. */
export interface PublishedCollection {
  collection: string;
  siteId: number;
  slugs: string[];
  /** Origins of the articles' public URLs on the service (`data.url`), to recognise links to them. */
  origins: string[];
  /** Each article's language (`data.language`), for the RSS handler's `language` filter. */
  languages: Record<string, string>;
}

type Registry = Map<string, PublishedCollection>;

function registry(): Registry {
  const global = globalThis as Record<symbol, unknown>;
  const existing = global[PUBLISHED_ARTICLES_REGISTRY];
  if (existing instanceof Map) return existing as Registry;
  const created: Registry = new Map();
  global[PUBLISHED_ARTICLES_REGISTRY] = created;
  return created;
}

function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const origin = new URL(value).origin;
  return origin === 'null' ? undefined : origin;
}

/** Records what `context.store` holds now; called at the end of every load of an articles collection. */
export function recordPublishedArticles(context: Pick<LoaderContext, 'collection' | 'store'>, siteId: number): void {
  const slugs: string[] = [];
  const origins = new Set<string>();
  const languages: Record<string, string> = {};
  for (const entry of context.store.values()) {
    slugs.push(entry.id);
    const language = (entry.data as { language?: unknown }).language;
    if (typeof language === 'string') languages[entry.id] = language;
    const origin = originOf((entry.data as { url?: unknown }).url);
    if (origin !== undefined) origins.add(origin);
  }
  registry().set(context.collection, {
    collection: context.collection,
    siteId,
    slugs: slugs.sort(),
    origins: [...origins].sort(),
    languages,
  });
}

/** Every recorded collection (a copy). */
export function publishedCollections(): PublishedCollection[] {
  return [...registry().values()].map((c) => ({
    ...c,
    slugs: [...c.slugs],
    origins: [...c.origins],
    languages: { ...c.languages },
  }));
}

/** Forgets every record: called when a build or dev server starts, so a previous build's collections never count. */
export function clearPublishedArticles(): void {
  registry().clear();
}
