import type { LoaderContext } from 'astro/loaders';
import { serviceDataOf } from '../entries/entry-schema.js';
import { processRecord } from './process-record.js';

/**
 * What each articles collection holds after its load (the loader's filters and budget applied), on a global
 * registry that the integration reads when it bundles its routes and writes the sitemap: the one answer to
 * "does the blog have this article?". One record per process (processRecord), not a module variable, because
 * the content config and the integration may load two copies of the package (Vite's module graph and Node's);
 * both run in the build's process, the load before the routes are bundled.
 */

/** One collection's articles: ids are the service's slugs. */
export interface PublishedCollection {
  collection: string;
  siteId: number;
  slugs: string[];
  /**
   * The hosts the service publishes this collection's articles on (origins of `data.url`), to recognise
   * links to them: an origin counts only when it carries at least a quarter of the collection's articles
   * (see `articleHosts`), so one article whose URL names another site cannot make the blog's links to
   * that site point at the blog.
   */
  origins: string[];
  /** Each article's language (`data.language`), for the RSS handler's `language` filter. */
  languages: Record<string, string>;
  /**
   * Slugs the loader removed because the service no longer publishes them (its state's `unpublished`), with
   * the loader's `language` ('' without one): the blog's links to them lose their address.
   */
  unpublished?: string[];
  /** The loader's `language` option, '' without one: the language `unpublished` speaks of. */
  language?: string;
  /** Renamed articles (its state's `moved`): old slug -> the slug stored now. The blog redirects the old URL. */
  moved?: Record<string, string>;
}

type Registry = Map<string, PublishedCollection>;

function registry(): Registry {
  return processRecord('published-articles', (): Registry => new Map());
}

function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const origin = new URL(value).origin;
  return origin === 'null' ? undefined : origin;
}

/**
 * The origins that carry at least a quarter of the articles (up to four hosts: one per language, say).
 * A host of fewer is left out: a link to it keeps its address, which still works, where trusting it would
 * let one article's URL claim another site's pages for the blog.
 */
export function articleHosts(counts: ReadonlyMap<string, number>, total: number): string[] {
  return [...counts]
    .filter(([, n]) => n * 4 >= total)
    .map(([origin]) => origin)
    .sort();
}

/** Records what `context.store` holds now; called at the end of every load of an articles collection. */
export function recordPublishedArticles(
  context: Pick<LoaderContext, 'collection' | 'store'>,
  siteId: number,
  unpublished: readonly string[] = [],
  language = '',
  moved: Readonly<Record<string, { to: string }>> = {},
): void {
  const slugs: string[] = [];
  const origins = new Map<string, number>();
  const languages: Record<string, string> = {};
  for (const entry of context.store.values()) {
    slugs.push(entry.id);
    // The article's own fields, kept beside the entry: a theme's schema may drop `language` and `url` from its data.
    const article = serviceDataOf(entry) ?? {};
    const language = article.language;
    if (typeof language === 'string') languages[entry.id] = language;
    const origin = originOf(article.url);
    if (origin !== undefined) origins.set(origin, (origins.get(origin) ?? 0) + 1);
  }
  registry().set(context.collection, {
    collection: context.collection,
    siteId,
    slugs: slugs.sort(),
    origins: articleHosts(origins, slugs.length),
    languages,
    unpublished: [...unpublished].sort(),
    language,
    moved: Object.fromEntries(Object.entries(moved).map(([from, move]) => [from, move.to])),
  });
}

/** Every recorded collection (a copy). */
export function publishedCollections(): PublishedCollection[] {
  return [...registry().values()].map((c) => ({
    ...c,
    slugs: [...c.slugs],
    origins: [...c.origins],
    languages: { ...c.languages },
    unpublished: [...(c.unpublished ?? [])],
    moved: { ...c.moved },
  }));
}

/** Forgets every record: called when a build or dev server starts, so a previous build's collections never count. */
export function clearPublishedArticles(): void {
  registry().clear();
}
