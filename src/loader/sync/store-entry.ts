/**
 * The one place an entry is written from the service's content: made safe (no secret, only http(s) URLs),
 * sanitised, its images handed to Astro's pipeline, parsed by the collection's schema, digested and stored.
 */
import type { LoaderContext } from 'astro/loaders';
import { sanitizeArticle } from '../../html/index.js';
import { parseEntry, withServiceData } from '../entries/entry-schema.js';
import { safeEntry } from '../entries/entry-safety.js';
import { stableStringify } from '../state/fingerprint.js';
import { pageDigest } from '../entries/page-digest.js';
import type { ImageStep } from '../images/images-step.js';
import type { ResolvedArticlesLoaderOptions } from '../options/options.js';
import type { EntryState, SyncState } from '../state/state.js';

/** What writing an entry needs of the build: Astro's context, the options, the loader's state, the image step. */
export interface EntryTarget {
  ctx: LoaderContext;
  opts: ResolvedArticlesLoaderOptions;
  state: SyncState;
  /** The image step (images-step.ts): article images handed to Astro's pipeline. */
  images: ImageStep;
}

/** What a reader sees: everything but the view count (which changes without the article changing). */
function semanticKey(data: Record<string, unknown>, html: string | undefined): string {
  // The featured image's local copy follows its URL (already in `rest`).
  const { viewCount: _viewCount, featuredImageAsset: _asset, ...rest } = data;
  return stableStringify({ rest, html: html ?? '' });
}

/** Sanitises and stores one entry; returns whether it was new, changed or the same to a reader. */
export async function storeEntry(
  input: EntryTarget,
  slug: string,
  unsafeData: Record<string, unknown>,
  unsafeContent: string,
  entryState: EntryState,
): Promise<'added' | 'changed' | 'same'> {
  const { ctx, opts, state, images } = input;
  const { data, html: content } = safeEntry(unsafeData, unsafeContent, opts.apiKey); // no secret, no non-http(s) url/featuredImage stored
  const before = ctx.store.get(slug);
  const url = typeof data.url === 'string' ? data.url : undefined;
  const { html, headings } = sanitizeArticle(content, {
    ...(opts.sanitize ? { sanitize: opts.sanitize } : {}),
    ...(url ? { articleUrl: url } : {}),
  });
  // The featured image's local copy first: the schema (a theme's mapping) may use it.
  const featuredLocal = await images.localiseUrl(
    typeof data.featuredImage === 'string' ? data.featuredImage : undefined,
  );
  const parsed = await parseEntry(ctx, slug, data, featuredLocal);
  const local = await images.localise(html);
  const digest = pageDigest(ctx, parsed.plain, local.html);
  const assets = featuredLocal ? [...local.imagePaths, featuredLocal] : local.imagePaths;
  ctx.store.set({
    id: slug,
    data: parsed.stored,
    rendered: {
      html: local.html,
      metadata: withServiceData({ headings, imagePaths: local.imagePaths }, parsed.source, parsed.plain),
    },
    digest,
    ...images.entryFields(slug, assets),
  });
  const storedSince = before ? state.entries[slug]?.storedSince : Date.now();
  state.entries[slug] = storedSince === undefined ? entryState : { ...entryState, storedSince };
  if (!before) return 'added';
  return semanticKey(before.data, before.rendered?.html) !== semanticKey(parsed.plain, local.html) ? 'changed' : 'same';
}
