/**
 * The opening of each variant's sequences in the loader model: commands that bring every fault kind, every kind
 * of change, a storm and a kill to a build, shared out between the variants, so that one run per variant covers
 * them all (the coverage table asserts they really reached a build). The generated commands follow.
 */
import { ROUTES, type Endpoint } from '../faults/helpers.js';
import {
  AddLanguage,
  Build,
  Bulk,
  Edit,
  Publish,
  Rename,
  Republish,
  SetStatus,
  Storm,
  Unpublish,
  type Cmd,
} from './loader-commands.js';
import { kindsOf, type ModelFault } from './loader-faults.js';
import { MODEL_VARIANTS, type ModelVariant } from './loader-variants.js';

const faultOf = (endpoint: Endpoint, kind: ModelFault['kind'], n: number): ModelFault => ({
  endpoint,
  kind,
  // Once: the build meets it, and the next build does not.
  times: 1,
  retryAfter: 1,
  drift: (['omit-slug', 'rename-content', 'add-fields'] as const)[n % 3]!,
});

/** Changes on the service before a build, one group per variant in turn (each group ends with that build). */
const CHANGES: Cmd[][] = [
  [new Publish('東京の夏', 'en', 'cjk', 'published', false), new Edit(0, 'title')],
  [new Unpublish(0), new Build(null, null), new Republish(0)],
  [new Rename(1), new SetStatus(0, 'draft')],
  [new Publish('Ça marche', 'fr', 'latin', 'scheduled', true), new SetStatus(1, 'pending_review')],
  [new SetStatus(0, 'scheduled'), new Build(null, null), new SetStatus(0, 'published')],
  [new Publish('Alpha', 'en', 'ascii', 'pending_review', false), new Edit(2, 'body')],
];

/** Every fault kind of every endpoint, detail ones only where no real rate limit can hide the detail call. */
function faultsOf(variant: ModelVariant): ModelFault[] {
  const all = (Object.keys(ROUTES) as Endpoint[]).flatMap((e) => kindsOf(e).map((kind, n) => faultOf(e, kind, n)));
  const free = MODEL_VARIANTS.filter((v) => v.rateLimit === undefined);
  const detail = all.filter((f) => f.endpoint === 'detail');
  const others = all.filter((f) => f.endpoint !== 'detail');
  const share = <T>(items: T[], pool: ModelVariant[]) =>
    pool.includes(variant) ? items.filter((_, i) => i % pool.length === pool.indexOf(variant)) : [];
  return [...share(detail, free), ...share(others, MODEL_VARIANTS)];
}

/** The opening commands of a variant's sequences. */
export function openingOf(variant: ModelVariant): Cmd[] {
  const index = MODEL_VARIANTS.indexOf(variant);
  const opening: Cmd[] = [];
  if (variant.bulk) opening.push(new Bulk(), new Build(null, null));
  if (variant.service.sharedSlugs) opening.push(new AddLanguage(index), new Build(null, null));
  opening.push(...CHANGES[index % CHANGES.length]!);
  for (const fault of faultsOf(variant)) opening.push(new Build(fault, null));
  // The window's headers in the variant's forms, where the limit is real; a kill inside a build elsewhere.
  if (variant.rateLimit) opening.push(new Storm(2), new Build(null, null));
  else if (index % 3 === 0) opening.push(new Edit(index, 'body'), new Edit(index + 1, 'body'), new Build(null, 1));
  return opening;
}

/** What the openings of `variants` bring to their builds, and each variant: what their run must reach. */
export function openingKinds(variants: ModelVariant[]): string[] {
  const brought = variants.flatMap((variant) => openingOf(variant).flatMap((cmd) => cmd.brings));
  return [...new Set([...brought, ...variants.map((v) => `variant ${v.name}`)])];
}
