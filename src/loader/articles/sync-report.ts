import type { LoaderContext } from 'astro/loaders';
import { emptyStoreNotice, isCi } from './ci-notice.js';
import type { LoaderClients } from '../budget/clients.js';
import type { ImageStep } from '../images/images-step.js';
import type { Notice } from './notice-memory.js';
import { storedAwaitingDetail, type SyncState } from '../state/state.js';
import type { ApplyOutcome } from '../sync/sync-apply.js';
import { incompleteLine, partialLine, warnAboutFailures } from './sync-notices.js';
import type { SyncPlan } from '../sync/sync-plan.js';
import { summaryLine, summarise } from './summary.js';
import { reportUndoneToWatch } from '../process/watch-report.js';

/**
 * The lines that end a build of `articlesLoader` (sync-run wires the steps): the summary, the CI warning about
 * an empty store, the entries kept incomplete or partial, the images, the list cut short (`capped`), and the
 * failures; and, under `watch --run`, what the build left undone. Said after the state is kept: what fails the
 * build then is the schema's refusals (thrown after this) and, with `strict: true`, the warnings said here.
 */
export function reportSync(input: {
  ctx: Pick<LoaderContext, 'store' | 'logger'>;
  state: SyncState;
  site: string;
  language: string | undefined;
  plan: SyncPlan;
  outcome: ApplyOutcome;
  /** The removals this build made (removalsNow: a renamed slug's old entry may wait). */
  removed: string[];
  clients: Pick<LoaderClients, 'requests' | 'remaining'>;
  storedAtStart: number;
  images: Pick<ImageStep, 'finish'>;
  capped: Notice | undefined;
  say: (notice: Notice | undefined) => void;
  warn: (message: string, error?: unknown) => void;
}): void {
  const { ctx, state, site, plan, outcome, clients, warn } = input;
  const { store, logger } = ctx;
  // Stored from the feed (the detail answers another language, or the budget did not reach it): pending.
  const { incomplete, partial } = storedAwaitingDetail(store.keys(), state);
  logger.info(
    summaryLine(
      summarise({
        plan: {
          fetch: plan.fetch,
          // A probe is a slug that may be another language's: said on its own line, not counted as pending.
          pending: [
            ...plan.pending.filter((p) => p.reason !== 'probe'),
            ...outcome.skipped.map((slug) => ({ slug })),
            ...outcome.unsent.map((slug) => ({ slug })),
            ...incomplete.map((slug) => ({ slug })),
            ...partial.map((slug) => ({ slug })),
          ],
          remove: input.removed,
        },
        failures: outcome.failures,
        added: outcome.added,
        changed: outcome.changed,
        has: (id) => store.has(id),
        touched: outcome.touched,
        total: store.keys().length,
        requests: clients.requests(),
        resent: outcome.resent,
        remaining: clients.remaining(),
      }),
    ),
  );
  const ciLine = emptyStoreNotice({
    ci: isCi(),
    storedAtStart: input.storedAtStart,
    total: store.keys().length,
    requests: clients.requests(),
  });
  if (ciLine) logger.warn(ciLine);
  if (incomplete.length) logger.info(incompleteLine(site, incomplete, input.language));
  if (partial.length) logger.info(partialLine(site, partial));
  const imageLine = input.images.finish(warn);
  if (imageLine) logger.info(imageLine);
  // New slugs waiting for their retry (their detail answered another language): not on the blog, said every build.
  const waiting = plan.pending
    .filter((p) => (p.reason === 'elsewhere' || p.reason === 'missing') && !store.has(p.slug))
    .map((p) => ({
      slug: p.slug,
      error: new Error(
        p.reason === 'missing'
          ? 'its detail answered 404 although the list shows it (not published yet, or no longer); asked again after 1, 2, 4 ... hours, or when the sitemap changes'
          : `its detail answered another language than "${input.language ?? '?'}" (the slug exists in several languages); asked again after 1, 2, 4 ... hours, or when the sitemap changes`,
      ),
    }));
  const probes = plan.pending.filter((p) => p.reason === 'probe').length;
  if (probes)
    logger.info(
      `${probes} article(s) that the public sitemap of ${site} shows and the list does not may be in "${input.language ?? '?'}": the sitemap does not say which language, so their details are asked for a few per build (within a share of the hourly window) and another language's are left to that language's loader.`,
    );
  input.say(input.capped);
  warnAboutFailures([...outcome.failures, ...waiting], site, warn);
  // Changed articles this build did not fetch (budget, failed calls; not those waiting for their language's
  // detail): `watch --run` retries such a build (watch-report.ts).
  const behind = new Set([
    ...plan.pending.filter((p) => !['elsewhere', 'missing', 'probe'].includes(p.reason)).map((p) => p.slug),
    ...partial,
    ...outcome.skipped,
    ...outcome.unsent,
    ...outcome.failures.map((f) => f.slug),
  ]);
  if (behind.size) reportUndoneToWatch(site, `${behind.size} changed article(s) not fetched yet`, 'behind');
  // Removals held back while the sitemap could not be read are undone work too (found by a trial: the watcher
  // recorded an unpublish as done, and the article stayed on the blog). Not the mass-removal guard's: it holds
  // until the user decides (its warning says how), and a retry at every run would change nothing.
  const unconfirmed = plan.capped && !plan.capped.checkedAgainstSitemap ? plan.capped.kept : 0;
  if (unconfirmed > 0)
    reportUndoneToWatch(
      site,
      `${unconfirmed} article(s) missing from the list kept: the public sitemap could not be read`,
      'behind',
    );
}
