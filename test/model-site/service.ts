/**
 * The site model test's picture of the service (issue 18, item 2; issue 36, item 3): what is published, in which
 * language, at which version of each field and with which status, and the service variant in force. The checks
 * judge every build from this, never from what the build said about itself. The admin API calls that change it
 * are in service-admin.ts.
 *
 * Every article carries what makes its page recognisable from HTTP alone: a marker with its language, slug
 * and body version in the first paragraph and a tail marker in the last (a cut copy lacks it), a title naming
 * its language and slug, a featured image and in-article images whose file names carry the language and a
 * version, and links to other articles.
 */
import type { ServiceVariants } from '../../src/simulator/variants.js';

export type Lang = 'en' | 'fr';
export const LANGS: readonly Lang[] = ['en', 'fr'];
export const SITE_ID = 12;
/** The service's domain of site 12: article URLs are `https://pro-blog.example.com/<lang>/blog/<slug>/`. */
export const SERVICE_ORIGIN = 'https://pro-blog.example.com';
const CDN = 'https://cdn.example.com';

export interface Article {
  lang: Lang;
  slug: string;
  title: string;
  /** Every title it has had (a page may show an older one only while pending). */
  titles: string[];
  /** Body version: the marker `mark-<lang>-<slug>-v<version>-end`. */
  version: number;
  /** In-article images of the current body. */
  images: number;
  /** Featured image version (`featured-<lang>-<n>.jpg`), or null: none. */
  featured: number | null;
  /** Keys (`lang:slug`) of the articles the current body links to. */
  links: string[];
  /** Every link target of every body it has had (a pending page may show an older body). */
  linksEver: string[];
  publishedAt: string;
  /** Publication order on the service (the detail endpoint answers the oldest article of a slug). */
  seq: number;
  /** `draft`: on the service, not published (its body edited since may never be shown). */
  status: 'published' | 'draft';
  /** Body versions the service showed as published: a page may show no other. */
  publishedVersions: number[];
  /** A body longer than the feed's cut (`rssTruncateAt`), by some filler paragraphs. */
  long: boolean;
  /** Builds run before its last change on the service (`Model.builds` then). */
  changedAt: number;
}

/** The service variant a round of the sequence plays (`PUT /__simulator/variants`), on top of the base. */
export interface SiteVariant {
  name: string;
  service: ServiceVariants;
}
export const BASE: SiteVariant = { name: 'base', service: {} };

/** What the service's RSS feed carries: whole articles, or a teaser (then only detail calls give a body). */
export type FeedContent = 'full' | 'teaser';

export interface Model {
  feed: FeedContent;
  /** The variant in force (shared slugs and `feed` under it). */
  variant: SiteVariant;
  published: Map<string, Article>;
  unpublished: Map<string, Article>;
  /** On the service with the status `draft`: set back from published, or never published. */
  drafts: Map<string, Article>;
  next: number;
  seq: number;
  /** A change the watcher has not recorded a trigger for yet (it must trigger on its next run). */
  watchDirty: boolean;
  /** The faults and storms set for the next build, with the simulator's id of each (cleared after it). */
  faults: InjectedFault[];
  /** Kinds of service change made since the last build that ran (they reach that build). */
  pending: Set<string>;
  /** What reached a build, by kind (the coverage table): changes, applied faults, real kills, watch runs. */
  coverage: Map<string, number>;
  /**
   * Renames: an old key -> the keys the article had since, in order (`en:a1` -> [`en:a12`, `en:a15`]). The blog may
   * serve a redirect page at an old URL, to a page of the same article only.
   */
  moves: Map<string, string[]>;
  /** Paths of images the service failed to serve to some build (a page may then name the remote image). */
  imageFailures: Set<string>;
  /** Pages served by the last checked build, by key: what they showed (a build never loses them). */
  served: Map<string, Shown>;
  /** Builds run (every kind). */
  builds: number;
  /**
   * The build whose feed requests had the second CDN edge take its copies (`feedStaleEdgeSeconds`): held an hour,
   * they show nothing changed since, whenever the variant is in force.
   */
  edgeCopiesAt: number | undefined;
  /**
   * Fifty articles newer than any of the blog's, in a language it does not build, fill the feed (its newest 50):
   * the feed has no copy of the blog's articles, and shows none of their changes.
   */
  pastFeed: boolean;
  /** Human-readable steps of this sequence, printed with a failure. */
  trace: string[];
}

/** A fault or a storm set on the simulator for the next build. */
export interface InjectedFault {
  id: string;
  /** `list`, `detail`, `sitemap`, `rss`, `image`, `storm` (every call), or `limiter` (the service's own window). */
  endpoint: string;
  /** What it did to the answers (faults.ts FAULT_KINDS). */
  kind: string;
}

/**
 * Every key the article at `key` has had, before and since (renames, and republishing at a slug it was renamed
 * from: a rename back, as far as anyone outside the service can tell).
 */
export function keysOfArticle(model: Model, key: string): Set<string> {
  const keys = new Set([key]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [from, later] of model.moves)
      for (const to of later)
        if (keys.has(from) !== keys.has(to)) {
          keys.add(from);
          keys.add(to);
          grew = true;
        }
  }
  return keys;
}

/** Counts one kind of thing that reached a build. */
export const cover = (model: Model, kind: string) => model.coverage.set(kind, (model.coverage.get(kind) ?? 0) + 1);

/** What an article page showed. */
export interface Shown {
  title: string;
  version: number;
  featured: number | null;
  images: number;
}

export const keyOf = (lang: Lang, slug: string) => `${lang}:${slug}`;
export const other = (lang: Lang): Lang => (lang === 'en' ? 'fr' : 'en');

export function newModel(feed: FeedContent): Model {
  return {
    feed,
    variant: BASE,
    published: new Map(),
    unpublished: new Map(),
    drafts: new Map(),
    next: 1,
    seq: 1,
    watchDirty: true,
    faults: [],
    pending: new Set(),
    coverage: new Map(),
    moves: new Map(),
    imageFailures: new Set(),
    served: new Map(),
    builds: 0,
    edgeCopiesAt: undefined,
    pastFeed: false,
    trace: [],
  };
}

/**
 * The language whose article the detail endpoint answers for a slug: the oldest one it shows (drafts too under
 * `draftDetail: 200`).
 */
export function detailLanguage(model: Model, slug: string): Lang | undefined {
  const shown = [...model.published.values()];
  if (model.variant.service.draftDetail === 200) shown.push(...model.drafts.values());
  return shown.filter((a) => a.slug === slug).sort((a, b) => a.seq - b.seq)[0]?.lang;
}

/** The feed's `content:encoded` of an article is cut (`rssTruncateAt`): not a whole copy. */
export const cutInFeed = (model: Model, a: Article) => {
  const at = model.variant.service.rssTruncateAt;
  return typeof at === 'number' && bodyOf(a).length > at;
};

export const featuredUrl = (a: Pick<Article, 'lang' | 'slug'>, n: number) =>
  `${CDN}/sites/${SITE_ID}/${a.slug}/featured-${a.lang}-${n}.jpg`;

/** The body of an article at its current version: marker, links (absolute and relative), images. */
export function bodyOf(a: Article): string {
  const [first, second] = a.links.map((key) => {
    const [lang, slug] = key.split(':') as [Lang, string];
    return { lang, slug };
  });
  const links = [
    first ? `<a href="${SERVICE_ORIGIN}/${first.lang}/blog/${first.slug}/">${first.slug}</a>` : '',
    // Relative: resolved against the article's own address on the service.
    second ? `<a href="/${second.lang}/blog/${second.slug}/">${second.slug}</a>` : '',
  ].join(' ');
  const figures = Array.from(
    { length: a.images },
    (_, i) =>
      `<figure><img src="${CDN}/sites/${SITE_ID}/${a.slug}/body-${a.lang}-${a.version}-${i}.jpg" width="640" height="400" alt="Figure ${i}"></figure>`,
  ).join('');
  const filler = a.long ? `<p>${'Words that make this article longer than the feed shows. '.repeat(20)}</p>` : '';
  return `<p>mark-${a.lang}-${a.slug}-v${a.version}-end</p><h2>Part ${a.version}</h2><p>See ${links}.</p>${figures}${filler}<p>tail-${a.lang}-${a.slug}-v${a.version}-end</p>`;
}

/** Up to two other published articles to link to, picked by `pick`. */
export function linkTargets(model: Model, self: string, pick: number): string[] {
  const keys = [...model.published.keys()].filter((k) => k !== self);
  if (keys.length === 0) return [];
  return [keys[pick % keys.length]!, keys[(pick + 1) % keys.length]!].filter((k, i, all) => all.indexOf(k) === i);
}

/**
 * The detail endpoint answers the slug's oldest article, in another language: the loader has only the feed
 * for it, which has no featured image. It counts as pending while its detail answers elsewhere.
 */
export function shadowed(model: Model, article: Pick<Article, 'lang' | 'slug'>): boolean {
  if (model.variant.service.detailLanguage === 'honoured') return false;
  return detailLanguage(model, article.slug) !== article.lang;
}

/**
 * Out of the loader's reach entirely: shadowed, and its feed copy not provably whole. README: such an article
 * stays pending, with a warning. (With a copy proven whole, only its featured image is out of reach.)
 *
 * Since issue 36 (d37eebe, evidence.ts feedCopyProvenWhole) a whole feed is not enough: the loader takes the copy
 * only when details it holds show the feed whole (none of them differs from its copy) and the copy is no longer than one shown whole (a feed that cuts
 * long bodies cuts them past some length). The details a loader is sure to hold are those of its language's
 * articles whose detail answers their own language, at their current version; before, any whole feed counted
 * (found by the fixed seed: fr:a1, with two links, is longer than en:a1, the only detail the fr loader saw).
 */
export function unreachable(
  model: Model,
  article: Pick<Article, 'lang' | 'slug'>,
  held: (other: Article) => number | undefined = () => undefined,
): boolean {
  if (!shadowed(model, article)) return false;
  if (model.feed !== 'full' || model.pastFeed) return true;
  const copy = model.published.get(keyOf(article.lang, article.slug));
  if (!copy || cutInFeed(model, copy)) return true;
  // Nor while an article the loader holds by its detail has a feed copy other than that detail (`held`: the body
  // version its page shows): an older version held, or a copy the feed cut. For all the loader knows, the feed
  // cuts or shortens its items (found by a random run: a site-wide edit the budget had not fetched yet).
  const disproved = [...model.published.values()].some((other) => {
    const version = other.lang === article.lang && !shadowed(model, other) ? held(other) : undefined;
    return version !== undefined && (version !== other.version || cutInFeed(model, other));
  });
  if (disproved) return true;
  const shownWhole = [...model.published.values()]
    .filter((other) => other.lang === article.lang && !shadowed(model, other) && !cutInFeed(model, other))
    .map((other) => bodyOf(other).length);
  return !shownWhole.some((length) => bodyOf(copy).length <= length);
}

/** How a new slug is written: ASCII (`a12`), Latin with accents (`ét12-ça`), or CJK (`記事12`). */
export const SLUG_KINDS = {
  ascii: (n: number) => `a${n}`,
  latin: (n: number) => `ét${n}-ça`,
  cjk: (n: number) => `記事${n}`,
} as const;
export type SlugKind = keyof typeof SLUG_KINDS;

/** A fresh article of `lang` (version 1, one image, a featured image, links to what is published). */
export function freshArticle(model: Model, lang: Lang, word: string, slug?: string, kind: SlugKind = 'ascii'): Article {
  const n = model.next++;
  const own = slug ?? SLUG_KINDS[kind](n);
  const title = `${word} ${lang} ${own}`;
  return withLinks(
    model,
    {
      lang,
      slug: own,
      title,
      titles: [title],
      version: 1,
      images: 1,
      featured: 1,
      links: [],
      linksEver: [],
      publishedAt: `2026-0${1 + (n % 9)}-1${n % 10}`,
      seq: 0,
      status: 'published',
      publishedVersions: [],
      long: false,
      changedAt: 0,
    },
    n,
  );
}

/** New link targets for the article's next body (kept in `linksEver`). */
export function withLinks(model: Model, article: Article, pick: number): Article {
  article.links = linkTargets(model, keyOf(article.lang, article.slug), pick);
  article.linksEver = [...new Set([...article.linksEver, ...article.links])];
  return article;
}

/** The service's list order: newest `published_at` first, then the latest published. */
export function listOrder(articles: Article[]): Article[] {
  return [...articles].sort((a, b) =>
    a.publishedAt === b.publishedAt ? b.seq - a.seq : a.publishedAt < b.publishedAt ? 1 : -1,
  );
}
