// The published articles of liveArticlesLoader's unfiltered list, per site, as this process last saw them: on an
// on-demand blog they are the article pages the blog serves (a slug outside the list, or one the service stopped
// publishing, answers "not found"), so links in its pages go to the blog only for these
// (src/integration/article-links-response.ts). One record per process (processRecord), as the service origins'.
import { processRecord } from './process-record.js';

/** The slugs, and the languages each is in ('' when the service did not say). */
export interface LiveArticlesSeen {
  known: ReadonlySet<string>;
  languages: Readonly<Record<string, readonly string[]>>;
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
