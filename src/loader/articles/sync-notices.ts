import { shortHash } from '../state/fingerprint.js';
import type { Notice } from './notice-memory.js';
import type { Dropped, ListedArticles } from '../sync/sync-list.js';
import type { SyncPlan } from '../sync/sync-plan.js';
import { MASS_REMOVAL_SHARE } from '../sync/sync-removals.js';
import { summaryLine } from './summary.js';
import { BudgetSpentError, describeError, PREFIX } from '../errors/warnings.js';

/**
 * What a build of `articlesLoader` tells the user beside its summary (sync-run wires the steps): the warnings
 * about the list and the plan, the line for entries kept incomplete, the summary of a build that kept the
 * store as it was, and the fetch failures. Each names the site, what happened, and what to do. A lasting
 * condition of the service (a list cut short, a repeated or a rejected slug) comes as a Notice with a key,
 * warned about once per change (notice-memory.ts).
 */

type Warn = (message: string, error?: unknown) => void;

/** The summary line of a build that kept every stored entry as it was (nothing listed, nothing fetched). */
export function keptLine(
  held: number,
  requests: number,
  remaining: number | undefined,
  pending: { stored: number; unstored: number } = { stored: 0, unstored: 0 },
): string {
  return summaryLine({
    total: held,
    added: 0,
    changed: 0,
    removed: 0,
    unchanged: held - pending.stored,
    pending: pending.stored + pending.unstored,
    requests,
    remaining,
  });
}

/**
 * The list call was not sent: the loaders before this one (or the builds before this one, `restored`) left no
 * request above the reserve. Returns the warning of a build that keeps what is stored; for a collection never
 * synced (or cleared by Astro) throws BudgetSpentError instead: an empty collection is no stale copy, it would
 * deploy a blog without its articles. A collection an earlier build left empty stays so, like any other kept
 * collection.
 */
export function reserveReachedLine(input: {
  site: string;
  held: number;
  /** The loader's state existed before this build. */
  found: boolean;
  reserve: number;
  /** What the builds before this one saw of the window (rate-window.ts), when it is known. */
  restored: string | undefined;
  /** The requests left this hour, as last seen. */
  remaining: number | undefined;
}): string {
  const { site, held, reserve, remaining } = input;
  const who = input.restored
    ? `the ${remaining === undefined ? '' : `${remaining} `}requests left this hour are at or below budget.reserve (${reserve}) (${input.restored})`
    : `the loaders of this build using the same API key left no request above budget.reserve (${reserve}) this hour${remaining === undefined ? '' : ` (${remaining} left)`}`;
  // With none left, a lower reserve changes nothing.
  const otherwise = `or raise the plan's limit${remaining === 0 ? '' : ', or lower budget.reserve'}`;
  if (held === 0 && !input.found)
    throw new BudgetSpentError(
      `${PREFIX} Did not list the articles of ${site}: ${who}, and nothing is stored yet (a first build, a fresh cache, or a store Astro cleared after a config change). The build stops rather than deploy the blog without its articles: retry once the hourly limit resets (${otherwise}).`,
    );
  return `Did not list the articles of ${site}: ${who}. ${held ? `Kept the ${held} stored articles` : 'The collection stays empty, as the last build left it'}; the first build after the hourly limit resets lists them again (${otherwise}).`;
}

/** A notice's key for a set of slugs: the same slugs in any order, repeated or not, give the same key. */
const slugsKey = (slugs: readonly string[]): string => shortHash([...new Set(slugs)].sort().join('\n'));

/**
 * The list's slugs that cannot be entry ids: skipped, not stored, not requested. A lasting condition
 * (notice-memory.ts): its key is the rejected slugs, so a build warns when the set changes.
 */
export function rejectedNotice(listed: ListedArticles, site: string): Notice | undefined {
  const { rejected } = listed;
  if (!rejected.length) return undefined;
  const first = rejected[0]!;
  return {
    level: 'warn',
    key: slugsKey(rejected.map((item) => item.slug)),
    message: `The list of ${site} has ${rejected.length} article slug(s) that cannot be an entry id (first: "${first.slug}" ${first.problem}); they were skipped: not stored, not requested. Fix the slug on the service.`,
  };
}

/**
 * Slugs the list repeats (the same slug in several languages, most often): only the first of each is kept. A
 * lasting condition (notice-memory.ts): its key is the repeated slugs, so a build warns when the set changes.
 */
export function repeatedNotice(listed: ListedArticles, site: string): Notice | undefined {
  const { repeated } = listed;
  if (!repeated.length) return undefined;
  return {
    level: 'warn',
    key: slugsKey(repeated),
    message: `The list of ${site} repeats ${repeated.length} slug(s) (first: "${repeated[0]}"); only the first of each is kept. If a slug exists in several languages, use one articlesLoader per language ({ language: 'fr' }) in separate collections.`,
  };
}

/** Up to three slugs, quoted, for a message. */
const someSlugs = (items: ReadonlyArray<{ slug: string }>) =>
  items
    .slice(0, 3)
    .map((item) => `"${item.slug}"`)
    .join(', ') + (items.length > 3 ? ', ...' : '');

/**
 * Items of a status the loader does not build (a draft, a scheduled article, an unknown word), sent by a list that
 * ignored the `status` filter or asked without it: skipped, not stored, not requested. A lasting condition.
 */
export function statusNotice(dropped: Dropped, site: string, statuses: ReadonlySet<string>): Notice | undefined {
  const { otherStatus } = dropped;
  if (!otherStatus.length) return undefined;
  const seen = [...new Set(otherStatus.map((item) => item.status))].map((s) => `"${s}"`).join(', ');
  const built = [...statuses].map((s) => `"${s}"`).join(', ');
  return {
    level: 'warn',
    key: slugsKey(otherStatus.map((item) => `${item.slug}|${item.status}`)),
    message: `The list of ${site} sent ${otherStatus.length} article(s) whose status is not ${built} (${seen}; ${someSlugs(otherStatus)}): skipped, not stored, not requested. The status filter of the list call was not applied by the service; to build another status too, set articlesLoader({ status: [${built}, ...] }).`,
  };
}

/**
 * Items of another language than the loader's, sent by a list that ignored `language`: skipped, never stored
 * under this loader (another collection's loader of that language builds them). A lasting condition.
 */
export function languageNotice(dropped: Dropped, site: string, language: string | undefined): Notice | undefined {
  const { otherLanguage } = dropped;
  if (!otherLanguage.length || language === undefined) return undefined;
  const seen = [...new Set(otherLanguage.map((item) => item.language))].map((l) => `"${l}"`).join(', ');
  return {
    level: 'warn',
    key: slugsKey(otherLanguage.map((item) => `${item.slug}|${item.language}`)),
    message: `The list of ${site} ignored language "${language}": it sent ${otherLanguage.length} article(s) in ${seen} (${someSlugs(otherLanguage)}), which this loader leaves out; only "${language}" articles are stored here. Give each language its own articlesLoader({ language }) and collection.`,
  };
}

/**
 * Stored articles the list lacks, kept because the sitemap read in this build is no evidence as new as the list
 * (evidence.ts sitemapAsNewAsList). A lasting condition while the same articles wait.
 */
export function withheldNotice(plan: Pick<SyncPlan, 'withheld'>, site: string): Notice | undefined {
  const { withheld } = plan;
  if (!withheld) return undefined;
  const why =
    withheld.reason === 'empty'
      ? 'the public sitemap read in this build lists no article'
      : `the public sitemap read in this build lacks ${withheld.missing} of the listed articles, so it is an older copy (the service's CDN keeps one for up to an hour)`;
  return {
    level: 'warn',
    key: `${withheld.reason}|${withheld.count}`,
    message: `Kept ${withheld.count} stored article(s) of ${site} that the list no longer shows: ${why}, which is no evidence that they were unpublished. They are removed once a sitemap as new as the list lacks them too.`,
  };
}

/** `X-RateLimit-Reset` came in another form than the epoch seconds of API.md's sample: how it was read. */
export function resetFormNotice(form: string | undefined, site: string): Notice | undefined {
  if (form === undefined || form === 'epoch-seconds' || form === 'absent') return undefined;
  const as = form.replaceAll('-', ' ');
  return {
    level: 'info',
    key: form,
    message: `The service of ${site} sends X-RateLimit-Reset as ${as} (API.md's sample shows epoch seconds): read as ${as}, and never as more than an hour ahead.`,
  };
}

/** A removal the plan held back: the list looks like an upstream accident. */
export function warnAboutMassRemoval(plan: SyncPlan, site: string, warn: Warn): void {
  if (!plan.massRemoval) return;
  const { removed, stored, listed: count } = plan.massRemoval;
  warn(
    `The list of ${site} came back with ${count} articles where ${stored} are stored: removing ${removed} at once looks like an upstream accident, so nothing was removed. If it is intended, set articlesLoader({ allowMassRemoval: true }) for one build.`,
  );
}

/**
 * A list that left out articles the public sitemap shows (the plan's `capped`), after the build's fetches. `cut`:
 * the evidence shows the list cut short (list-evidence.ts); without it the stored articles it left out may be
 * unpublished ones that a stale CDN copy of the sitemap still shows, so the line says both and is only an info
 * line (nothing is wrong either way: they stay until the sitemap drops them), unless they are as many as the
 * mass-removal guard would withhold (then it warns, naming both causes). `paged`: the list said it has more
 * pages, which this build did not read because the sitemap showed nothing new: the stored articles beyond the
 * first page are expected then, and nothing is said. `pending`: the slugs this build left pending. The warnings
 * are about a lasting condition (notice-memory.ts): their key is what makes it (the list cut at `count`), not the
 * counts that move while it holds, so later builds say the same condition in an info line.
 */
export function cappedNotice(
  plan: Pick<SyncPlan, 'capped'>,
  site: string,
  input: {
    cut: boolean;
    paged: boolean;
    sitemapOnly: readonly string[];
    pending: ReadonlySet<string>;
    /** Entries stored before this build. */
    stored: number;
  },
): Notice | undefined {
  const { capped } = plan;
  if (!capped || (input.paged && capped.beyond === 0 && capped.checkedAgainstSitemap)) return undefined;
  const { listed: count, kept, checkedAgainstSitemap, beyond } = capped;
  const waiting = input.sitemapOnly.filter((slug) => input.pending.has(slug)).length;
  const loading = `loaded with one detail call each within the budget (${waiting} pending after this build)`;
  if (input.cut) {
    const parts = [
      `The list of ${site} came back with ${count} articles and left out published ones: the service cuts the list short.`,
    ];
    if (beyond > 0) parts.push(`The public sitemap shows ${beyond} more, ${loading}.`);
    if (kept > 0) {
      parts.push(
        checkedAgainstSitemap
          ? `${kept} stored article(s) missing from the list are still in the public sitemap and were kept.`
          : `The public sitemap could not be read, so none of the ${kept} stored article(s) missing from the list was removed.`,
      );
    }
    return { level: 'warn', key: `cut:${count}`, message: parts.join(' ') };
  }
  if (!checkedAgainstSitemap) {
    return {
      level: 'warn',
      key: `unread:${count}:${kept}`,
      message: `The list of ${site} came back with ${count} articles, without ${kept} stored one(s). The public sitemap could not be read, so none of the ${kept} stored article(s) missing from the list was removed. The next build that reads it removes those it no longer shows.`,
    };
  }
  const parts: string[] = [];
  if (kept > 0 && (count === 0 || kept > input.stored * MASS_REMOVAL_SHARE)) {
    // As many as the mass-removal guard withholds: whatever the cause, the user should look.
    return {
      level: 'warn',
      key: `lost:${count}:${kept}`,
      message: `The list of ${site} came back with ${count} articles, without ${kept} of the ${input.stored} stored ones, which the public sitemap still shows: they were kept. Losing so many at once looks like an upstream accident (a list cut short or broken), unless they were unpublished within the hour the CDN may keep its copy of the sitemap: then they leave once it drops them.`,
    };
  }
  if (kept > 0) {
    parts.push(
      `The list of ${site} came back with ${count} articles, without ${kept} stored one(s) that the public sitemap still shows: they were kept. The sitemap may be a CDN copy up to an hour old, so they may have been unpublished since (they leave once the sitemap drops them); if it still shows them after that hour, the service cuts its list short, and a build says so.`,
    );
  }
  if (beyond > 0) {
    parts.push(
      `The public sitemap of ${site} shows ${beyond} article(s) the list (${count} articles) does not have, ${loading}.`,
    );
  }
  return { level: 'info', message: parts.join(' ') };
}

/** Names the entries built from the feed because their slug's detail answers another language. */
export function incompleteLine(site: string, slugs: string[], language: string | undefined): string {
  const some = slugs.length === 1 ? 'it was built from the feed and counts' : 'they were built from the feed and count';
  return `${slugs.length} article(s) of ${site} (first: "${slugs[0]}") lack the featured image (and the keywords, unless the feed's items list them as categories): the service's detail of the slug answers another language than "${language ?? '?'}" (the slug exists in several languages, and the service ignored the \`?language=${language ?? '?'}\` the detail was asked with), so ${some} as pending. The detail is retried within the budget, after 1, 2, 4 ... hours (at most a day) or as soon as the sitemap changes; giving each language its own slug on the service completes ${slugs.length === 1 ? 'it' : 'them'}.`;
}

/**
 * The entries built from the feed because the budget did not reach their detail calls: on the blog, but without
 * the fields only the detail has, until a later build completes them (found by a trial on AstroWind, whose
 * first deploy showed 21 of 40 articles without their featured image while the summary said 0 pending).
 */
export function partialLine(site: string, slugs: string[]): string {
  return `${slugs.length} article(s) of ${site} (first: "${slugs[0]}") were built from the RSS feed, their detail calls beyond the budget or failed: they are on the blog without the fields only the detail has (the featured image, the meta description, the keywords unless the feed lists them as categories), and later builds complete them within their budget.`;
}

/** The detail calls that failed: their previous versions stay. */
export function warnAboutFailures(
  failures: ReadonlyArray<{ slug: string; error: unknown }>,
  site: string,
  warn: Warn,
): void {
  if (!failures.length) return;
  const first = failures[0]!;
  warn(
    `${failures.length} article(s) of ${site} could not be fetched (first: "${first.slug}": ${describeError(first.error)}). Their previous versions are kept; later builds try again.`,
    first.error,
  );
}
