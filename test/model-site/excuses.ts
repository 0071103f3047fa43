/**
 * The model's accounting of a build of the site model (site-checks.ts): why an article may still be behind the
 * service after it, from the service's records of the build and the variant in force, never from the build's log.
 */
import type { BuildRun } from './runner.js';
import { BUDGET, RATE_LIMIT } from './runner.js';
import { keyOf, LANGS, listOrder, SITE_ID, type Lang, type Model } from './service.js';

/**
 * The calls one language's loader may send when the service's window is shared (docs/guides/how-it-works.md:
 * the window above the reserve is split evenly among the articles loaders still to send their list): its list
 * call and an even share of the rest. The first loader of a build gets 1 + floor(5 / 2) = 3 of a window of 6.
 */
const WINDOW_SHARE = 1 + Math.floor((RATE_LIMIT.requests - 1) / LANGS.length);

/**
 * Why an article of `lang` may still be behind after this build, from the model's accounting of it (the service's
 * records of the build and the variant in force): its list call in that language failed (or was never sent after
 * the service answered an error or a 429: without one, a loader that sends no list is locked out, never excused),
 * the slug's detail call failed, that language's calls (its list calls, and the detail calls of slugs it has)
 * reached its budget, the service's rate-limit window was spent (a 429 of the limiter, or the language's detail
 * calls used what the window left after its list call) or that language's calls reached its even share of it, or
 * a capped list left it out while the sitemap (empty or a stale copy) cannot show it.
 * Undefined: it could have been fetched.
 */
export function serviceExcuses(model: Model, run: BuildRun) {
  const records = run.records.filter((r) => r.path.startsWith(`/api/v1/sites/${SITE_ID}/articles/`));
  const listPath = `/api/v1/sites/${SITE_ID}/articles/`;
  const slugOf = (path: string) => decodeURIComponent(path.slice(listPath.length).replace(/\/$/, ''));
  const lists = (lang: Lang) =>
    records.filter((r) => r.path === listPath && (r.query ?? '').includes(`language=${lang}`));
  const slugsOf = (lang: Lang) =>
    new Set(
      [...model.published.values(), ...model.unpublished.values(), ...model.drafts.values()]
        .filter((a) => a.lang === lang)
        .map((a) => a.slug),
    );
  const spent = (lang: Lang) => {
    const slugs = slugsOf(lang);
    return lists(lang).length + records.filter((r) => r.path !== listPath && slugs.has(slugOf(r.path))).length;
  };
  // A call failed: an error status, no answer, or an answer a fault cut, delayed past the timeout or changed.
  const failed = (r: BuildRun['records'][number]) => r.status !== 200 || r.faulted === true;
  const refused = run.records.some((r) => r.status === 0 || r.status >= 400 || r.faulted);
  // A list failed when some page of it (one query: retries repeat it) never had a good answer.
  const listFailed = (calls: BuildRun['records']) =>
    calls.some((call) => calls.filter((r) => r.query === call.query).every(failed));
  // The service's own 429s (a fault's are the fault's: it explains only the calls it hit).
  const limited = run.records.some(isLimiter429);
  // What the window left a language's loader after its last good list call (the `X-RateLimit-Remaining` it read),
  // and whether its detail calls since used all of it.
  const windowSpent = (lang: Lang) => {
    const list = lists(lang)
      .filter((r) => !failed(r))
      .at(-1);
    if (list === undefined) return false;
    const slugs = slugsOf(lang);
    const details = records.filter((r) => r.path !== listPath && r.at >= list.at && slugs.has(slugOf(r.path)));
    return details.length >= RATE_LIMIT.requests - windowHits(run.records, list.at);
  };
  const excuse = (lang: Lang, slug: string): string | undefined => {
    const langLists = lists(lang);
    if (langLists.length === 0 ? refused : listFailed(langLists)) return 'list failed';
    if (records.some((r) => r.path !== listPath && slugOf(r.path) === slug && failed(r))) return 'detail failed';
    if (spent(lang) >= BUDGET) return 'budget spent';
    if (limited || windowSpent(lang)) return 'window spent';
    if (spent(lang) >= WINDOW_SHARE) return 'its share of the window spent';
    if (edgeHidesChange(model, lang, slug)) return 'changed after the stale CDN edge took its copies';
    if (notListed(model, lang, slug)) return 'not in the capped list, no live sitemap';
    return undefined;
  };
  return Object.assign(excuse, { spent });
}

/** A 429 of the service's own window: one no injected fault answered. */
export const isLimiter429 = (record: BuildRun['records'][number]) => record.status === 429 && !record.faulted;

/**
 * The requests the service's window counted at `at` (its limiter's hits in the last `windowMs`, that one included):
 * authenticated calls it let through. Counted generously (a status a fault answered in a call's place never
 * reached the limiter): a window the model counts as fuller excuses more, never less.
 */
export function windowHits(records: BuildRun['records'], at: number): number {
  return records.filter((r) => r.authorization && r.at <= at && r.at > at - RATE_LIMIT.windowMs && !isLimiter429(r))
    .length;
}

/**
 * Two CDN edges serve the feeds in turn, the second's copies taken at an earlier build: a loader whose feed calls
 * reached it sees nothing changed since, and the list does not show edits (API.md: no update time in a list item).
 */
function edgeHidesChange(model: Model, lang: Lang, slug: string): boolean {
  const article = model.published.get(keyOf(lang, slug));
  return (
    (model.variant.service.feedStaleEdgeSeconds ?? 0) > 0 &&
    model.edgeCopiesAt !== undefined &&
    article !== undefined &&
    article.changedAt >= model.edgeCopiesAt
  );
}

/** Out of a capped list (`listDefault`, `listMax`) while the sitemap is empty or a stale copy. */
function notListed(model: Model, lang: Lang, slug: string): boolean {
  const service = model.variant.service;
  if ((service.sitemapState ?? 'live') === 'live') return false;
  const caps = [service.listDefault, service.listMax].filter((n): n is number => typeof n === 'number');
  if (caps.length === 0) return false;
  const everyStatus = service.listStatuses === 'all' && service.listStatus === 'ignored';
  const shown = listOrder([...model.published.values(), ...(everyStatus ? model.drafts.values() : [])]).filter(
    (a) => service.listLanguage === 'ignored' || a.lang === lang,
  );
  return !shown.slice(0, Math.min(...caps)).some((a) => a.lang === lang && a.slug === slug);
}
