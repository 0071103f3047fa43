import type { LoaderContext } from 'astro/loaders';
import { EntrySchemaError, parseEntry, serviceDataOf, withServiceData } from '../entries/entry-schema.js';
import type { ImageStep } from './images-step.js';

/**
 * The stored articles that no fetch touched in this build, against the image step: local copies that are gone
 * (cache cleared by hand) fetched again, images that failed before tried again, everything back to remote
 * URLs when images were turned off. An entry is written only when something changed; its data goes through
 * the collection's schema again (from the article's fields held beside it), so a theme's mapping of the
 * featured image follows; with `reparse`, every entry goes through it. Returns the articles the schema refused
 * (their stored version stays).
 */
export async function refreshStoredImages(
  ctx: LoaderContext,
  step: ImageStep,
  digestOf: (data: Record<string, unknown>, html: string) => string,
  skip: ReadonlySet<string>,
  /**
   * Every entry through the collection's schema again, changed or not: entries copied from the other command's
   * store (store-seed.ts) were parsed by the schema of that command's content config, which may since have
   * changed (Astro clears a store on such a change, but the copy came from the other store). An entry whose
   * data comes out the same keeps its digest, and Astro writes nothing for it.
   */
  reparse = false,
): Promise<EntrySchemaError[]> {
  const { store } = ctx;
  const refused: EntrySchemaError[] = [];
  // First every copy these entries name that is past its freshness, together: a replaced one gets a new name.
  const named: string[] = [];
  for (const id of store.keys()) {
    if (skip.has(id)) continue;
    const entry = store.get(id);
    named.push(...((entry?.rendered?.metadata?.imagePaths ?? []) as string[]));
    const local = serviceDataOf(entry)?.featuredImageAsset;
    if (typeof local === 'string') named.push(local);
  }
  await step.revalidate(named);
  for (const id of store.keys()) {
    if (skip.has(id)) continue;
    const entry = store.get(id);
    const html = entry?.rendered?.html;
    const source = serviceDataOf(entry);
    if (!entry || html === undefined || !source) continue;
    const paths = (entry.rendered?.metadata?.imagePaths ?? []) as string[];
    const url = typeof source.featuredImage === 'string' ? source.featuredImage : undefined;
    const local = typeof source.featuredImageAsset === 'string' ? source.featuredImageAsset : undefined;
    const refreshed = await step.refresh(html, paths);
    const stale = step.featuredStale(url, local);
    if (!refreshed && !stale && !reparse) continue;
    const next = refreshed ?? { html, imagePaths: paths };
    const nextLocal = stale ? await step.localiseUrl(url) : local;
    let parsed;
    try {
      parsed = await parseEntry(ctx, id, source, nextLocal);
    } catch (error) {
      if (!(error instanceof EntrySchemaError)) throw error;
      refused.push(error);
      continue;
    }
    const {
      filePath: _f,
      assetImports: _a,
      imageImports: _i,
      ...rest
    } = entry as typeof entry & { assetImports?: string[]; imageImports?: unknown };
    store.set({
      ...rest,
      data: parsed.stored,
      rendered: {
        ...entry.rendered,
        html: next.html,
        metadata: withServiceData(
          { ...entry.rendered?.metadata, imagePaths: next.imagePaths },
          parsed.source,
          parsed.plain,
        ),
      },
      digest: digestOf(parsed.plain, next.html),
      ...step.entryFields(id, nextLocal ? [...next.imagePaths, nextLocal] : next.imagePaths),
    });
  }
  return refused;
}
