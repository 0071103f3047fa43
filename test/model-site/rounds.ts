/**
 * The sequence of the site model: rounds, each playing a service variant (issue 36: a sample of those the loader
 * model draws from, docs/simulator.md) with the changes, faults, storm or kill that must reach its one build, in a
 * random order with random parameters, plus up to `extra` random changes. Each round draws from its own seed.
 */
import fc from 'fast-check';
import {
  AddLanguage,
  EditAll,
  EditBody,
  EditTitle,
  Featured,
  PastFeed,
  Publish,
  Rename,
  Republish,
  StatusChange,
  Unpublish,
  type Command,
  type Real,
} from './changes.js';
import { Build, Fault, Storm } from './commands.js';
import { FAULT_ENDPOINTS, FAULT_KINDS, kindsOf, type FaultEndpoint, type FaultKind } from './faults.js';
import { setVariant } from './service-admin.js';
import { BASE, type Lang, type Model, type SiteVariant, type SlugKind } from './service.js';

/** The service variant from now on (the round's first command). */
class SetVariant implements Command {
  constructor(readonly variant: SiteVariant) {}
  check = () => true;
  async run(model: Model, real: Real) {
    model.trace.push(`variant: ${this.variant.name}`);
    await setVariant(model, real.sim, this.variant);
  }
  toString = () => `SetVariant(${this.variant.name})`;
}

// Words of titles: ASCII, or with characters HTML escapes and beyond ASCII (the loader model's kinds too).
const word = fc.oneof(
  fc.stringMatching(/^[A-Z][a-z]{2,7}$/),
  fc.constantFrom('Été', 'Ñandú', 'Ærøskøbing', '東京の夏', 'Привет', 'Fish & Chips', '"Quoted" <b>', 'Ça va ?'),
);
const slugKind = fc.constantFrom<SlugKind>('ascii', 'ascii', 'latin', 'cjk');
const n = fc.nat(50);
const lang = fc.constantFrom<Lang>('en', 'fr');
const how = fc.constantFrom<'build' | 'watch'>('build', 'watch');
const publish = fc.tuple(word, lang, slugKind).map(([w, l, k]) => new Publish(w, l, false, 'published', k));
const publishLong = fc.tuple(word, lang).map(([w, l]) => new Publish(w, l, true));
const newDraft = fc.tuple(word, lang).map(([w, l]) => new Publish(w, l, false, 'draft'));
const toDraft = fc.tuple(n, fc.boolean()).map(([p, e]) => new StatusChange(p, 'draft', e));
const toDraftEdited = n.map((p) => new StatusChange(p, 'draft', true));
const fromDraft = n.map((p) => new StatusChange(p, 'published', false));
const addLanguage = n.map((p) => new AddLanguage(p));
const editBody = fc.tuple(n, fc.integer({ min: 0, max: 2 })).map(([p, i]) => new EditBody(p, i));
const editTitle = n.map((p) => new EditTitle(p));
const featured = fc.tuple(n, fc.boolean()).map(([p, r]) => new Featured(p, r));
const unpublish = n.map((p) => new Unpublish(p));
const republish = n.map((p) => new Republish(p));
const rename = n.map((p) => new Rename(p));
const renameServed = n.map((p) => new Rename(p, true));
// A fault of any kind on any call of the build, images included.
const fault = fc
  .constantFrom(...FAULT_ENDPOINTS)
  .chain((endpoint) =>
    fc.tuple(fc.constant(endpoint), fc.constantFrom(...kindsOf(endpoint)), fc.integer({ min: 1, max: 3 }), fc.nat(2)),
  )
  .map(([e, k, t, d]) => new Fault(e, k, t, d));
// A few calls: a storm of a whole build leaves nothing of the round's variant to judge.
const storm = fc.integer({ min: 2, max: 4 }).map((t) => new Storm(t));
// Two loaders list once each; a cold build's detail calls are at least three.
const killPoint = fc.oneof(
  fc.record({ call: fc.constant<'list'>('list'), n: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ call: fc.constant<'detail'>('detail'), n: fc.integer({ min: 1, max: 3 }) }),
);
const build = fc.constant(new Build('build'));
const killedBuild = fc.tuple(how, killPoint).map(([h, k]) => new Build(h, k));
const change = fc.oneof(
  fault,
  publish,
  publishLong,
  newDraft,
  toDraft,
  fromDraft,
  addLanguage,
  editBody,
  editTitle,
  featured,
  unpublish,
  republish,
  rename,
);

/**
 * Faults of every kind, on every kind of call between them (the coverage table requires both): the kinds in a
 * random order, each on a call that takes it (faults.ts kindsOf), a call no earlier fault had first. Once each.
 */
export const coveringFaults: fc.Arbitrary<Fault[]> = fc
  .tuple(
    fc.shuffledSubarray([...FAULT_KINDS], { minLength: FAULT_KINDS.length }),
    fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  )
  .map(([kinds, picks]) => {
    const hit = new Set<FaultEndpoint>();
    return kinds.map((kind: FaultKind, i) => {
      const takers = FAULT_ENDPOINTS.filter((e) => kindsOf(e).includes(kind));
      const fresh = takers.filter((e) => !hit.has(e));
      const from = fresh.length ? fresh : takers;
      const endpoint = from[picks[i]! % from.length]!;
      hit.add(endpoint);
      return new Fault(endpoint, kind, 1, picks[i]!);
    });
  });

/**
 * Which round's build a covering fault goes to: the details' and the feeds' to the lax round, the first to sync
 * after the killed cold build (every article new: detail calls certain); the images' to the next (new articles,
 * a new featured image and a rename bring downloads; a detail fault can leave a build without any); the lists'
 * to the last, beside a storm (a list fault fails a build that never synced, and leaves a build little to judge).
 */
const FAULT_ROUND: Record<FaultEndpoint, number> = { detail: 1, rss: 1, sitemap: 1, image: 2, list: 4 };

export interface Round {
  variant: SiteVariant;
  /** What always reaches the round's build. */
  must: Array<fc.Arbitrary<Command>>;
  end: fc.Arbitrary<Command>;
}

/** Two CDN edges, the second's copies up to an hour old: copies taken in one round come back in a later one. */
const EDGES = { feedStaleEdgeSeconds: 3600 } as const;

export const ROUNDS: Round[] = [
  // The cold build, killed while the service holds one of its calls: its changes reach the next build.
  { variant: BASE, must: [publish, editBody], end: killedBuild },
  {
    // The simulator's `lax` profile's list and detail, one service answering every way API.md leaves open.
    variant: {
      name: 'lax list: language and status ignored, drafts listed and answered, detail honours ?language=, two CDN edges',
      service: {
        listLanguage: 'ignored',
        listStatus: 'ignored',
        listStatuses: 'all',
        draftDetail: 200,
        detailLanguage: 'honoured',
        ...EDGES,
      },
    },
    must: [addLanguage, rename, toDraftEdited, newDraft, unpublish],
    end: build,
  },
  {
    variant: {
      name: 'feed cuts long bodies, two CDN edges (copies of the last round)',
      service: { rssTruncateAt: 800, ...EDGES },
    },
    // A rename of an article the last round built: its old URL redirects (issue 38).
    must: [publishLong, editBody, featured, renameServed],
    end: build,
  },
  {
    variant: {
      name: 'capped list of 2 ignoring limit, empty sitemap, real rate limit with resets in epoch ms',
      service: {
        listDefault: 2,
        listMax: 2,
        listLimit: 'ignored',
        sitemapState: 'empty',
        rateLimitReset: 'epoch-ms',
        retryAfter: 'http-date',
      },
    },
    // A site-wide edit: more detail calls (the feed shows every change) than the window allows.
    must: [publish, publish, unpublish, editTitle, fc.constant(new EditAll())],
    end: fc.constant(new Build('watch')),
  },
  // The lists' faults and a storm, once the blog has synced: a build with a store keeps it when a list fails.
  { variant: { name: 'base, lists failing', service: {} }, must: [publish, editBody, storm], end: build },
  // Past the feed's 50: the changes that reach this build (and the quiet builds) show in the list and sitemap only.
  {
    variant: { name: "base, the site past the feed's 50", service: {} },
    must: [fc.constant(new PastFeed()), editBody, editTitle, publish],
    end: build,
  },
];

/** A round's commands: its variant, then its musts, `faults` and up to `extra` changes shuffled, then its build. */
function roundOf(round: Round, faults: Fault[], extra: number): fc.Arbitrary<Command[]> {
  return fc
    .tuple(fc.tuple(...round.must), fc.array(change, { maxLength: extra }), round.end)
    .chain(([required, more, last]) =>
      fc
        .shuffledSubarray([...required, ...faults, ...more], {
          minLength: required.length + faults.length + more.length,
        })
        .map((shuffled) => [new SetVariant(round.variant), ...shuffled, last]),
    );
}

/** Every round's commands, round `i` drawn with the seed `seed + i`; the covering faults with `seed` alone. */
export function roundCommands(seed: number, extra: number): Command[][] {
  const faults = fc.sample(coveringFaults, { seed, numRuns: 1 })[0]!;
  return ROUNDS.map(
    (round, i) =>
      fc.sample(
        roundOf(
          round,
          faults.filter((f) => FAULT_ROUND[f.endpoint] === i),
          extra,
        ),
        { seed: seed + i, numRuns: 1 },
      )[0]!,
  );
}

/**
 * Two English articles and one French variant (built by the first round), and an English one whose slug and
 * title go beyond ASCII (a title with characters HTML escapes).
 */
export async function startingSite(model: Model, real: Real): Promise<void> {
  await new Publish('Alpha', 'en').run(model, real);
  await new Publish('Beta', 'en').run(model, real);
  await new AddLanguage(0).run(model, real);
  await new Publish('Été & "Ça" <va>', 'en', false, 'published', 'latin').run(model, real);
}
