// The published articles of liveArticlesLoader's unfiltered list, per site, as this process last saw them: on an
// on-demand blog they are the article pages the blog serves (a slug outside the list, or one the service stopped
// publishing, answers "not found"), so links in its pages go to the blog only for these
// (src/integration/links/article-links-response.ts). One record per process (processRecord), as the service origins'.
import { processRecord } from './process-record.js';

/** The slugs, and the languages each is in ('' when the service did not say). */
export interface LiveArticlesSeen {
  known: ReadonlySet<string>;
  languages: Readonly<Record<string, readonly string[]>>;
  /** Counts the changes of what is listed: what was built from an older list (a feed's mapping) is rebuilt. */
  generation: number;
  /** The loader that listed last (a reloaded live.config.ts leaves older ones behind): the one to list again. */
  lister: WeakRef<object> | undefined;
}

function seen(): Map<number, LiveArticlesSeen> {
  return processRecord('live-articles', () => new Map<number, LiveArticlesSeen>());
}

/**
 * Records the published articles of the unfiltered list of `siteId` the live loader just received (they replace
 * the ones before). Another status, such as an article the service stopped publishing, answers "not found".
 */
export function noteLiveArticles(
  siteId: number,
  items: ReadonlyArray<{ slug: string; status: string; language?: string | null }>,
  lister?: object,
): void {
  const languages: Record<string, string[]> = {};
  for (const item of items) {
    if (item.status !== 'published') continue;
    const list = (languages[item.slug] ??= []);
    const language = item.language ?? '';
    if (!list.includes(language)) list.push(language);
  }
  const before = seen().get(siteId);
  const same = before !== undefined && JSON.stringify(before.languages) === JSON.stringify(languages);
  const generation = before === undefined ? 1 : same ? before.generation : before.generation + 1;
  seen().set(siteId, {
    known: new Set(Object.keys(languages)),
    languages,
    generation,
    lister: lister === undefined ? undefined : new WeakRef(lister),
  });
}

/** The published articles last listed for `siteId`, or undefined before any list. */
export function liveArticlesSeen(siteId: number): LiveArticlesSeen | undefined {
  return seen().get(siteId);
}
