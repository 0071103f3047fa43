// The published articles of liveArticlesLoader's unfiltered list, per site, as this process last saw them: on an
// on-demand blog they are the article pages the blog serves (a slug outside the list, or one the service stopped
// publishing, answers "not found"), so links in its pages go to the blog only for these
// (src/integration/article-links-response.ts). A global symbol, as the service origins' record: the routes'
// bundle, the loaders and the integration may be copies of the package in one process.
const LIVE_ARTICLES = Symbol.for('astro-content-publisher.live-articles');

/** The slugs, and the languages each is in ('' when the service did not say). */
export interface LiveArticlesSeen {
  known: ReadonlySet<string>;
  languages: Readonly<Record<string, readonly string[]>>;
}

function seen(): Map<number, LiveArticlesSeen> {
  const global = globalThis as Record<symbol, unknown>;
  if (!(global[LIVE_ARTICLES] instanceof Map)) global[LIVE_ARTICLES] = new Map<number, LiveArticlesSeen>();
  return global[LIVE_ARTICLES] as Map<number, LiveArticlesSeen>;
}

/**
 * Records the published articles of the unfiltered list of `siteId` the live loader just received (they replace
 * the ones before). Another status, such as an article the service stopped publishing, answers "not found".
 */
export function noteLiveArticles(
  siteId: number,
  items: ReadonlyArray<{ slug: string; status: string; language?: string | null }>,
): void {
  const languages: Record<string, string[]> = {};
  for (const item of items) {
    if (item.status !== 'published') continue;
    const list = (languages[item.slug] ??= []);
    const language = item.language ?? '';
    if (!list.includes(language)) list.push(language);
  }
  seen().set(siteId, { known: new Set(Object.keys(languages)), languages });
}

/** The published articles last listed for `siteId`, or undefined before any list. */
export function liveArticlesSeen(siteId: number): LiveArticlesSeen | undefined {
  return seen().get(siteId);
}
