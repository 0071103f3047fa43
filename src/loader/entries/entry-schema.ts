import { isDeepStrictEqual } from 'node:util';
import type { LoaderContext } from 'astro/loaders';
import { PREFIX } from '../../options/prefix.js';

/**
 * An article through the collection's schema. The loader keeps the article's own fields (the schema's input,
 * `serviceData`) beside the entry, so that a later build that changes only part of it (a body from the feed,
 * an image fetched again) runs the schema on the article, never on a previous output of the schema (which a
 * transform may have reshaped). The featured image's local copy goes in before the schema runs, so that a
 * theme mapping (`starterFields`, a user's `.transform`, a theme's `image()` field) can use it.
 */

/** The prefix by which `store.set` turns a data field into an image the content layer resolves to `ImageMetadata`. */
export const IMAGE_IMPORT_PREFIX = '__ASTRO_IMAGE_';

/** Where an entry keeps its article's fields (the schema's input) beside the rendered HTML. */
const SERVICE_DATA = 'serviceData';

type Data = Record<string, unknown>;
type StoredEntry = NonNullable<ReturnType<LoaderContext['store']['get']>>;

/** The collection's schema refused an article: a build must fail on it, like Astro's own loaders do. */
export class EntrySchemaError extends Error {
  override name = 'EntrySchemaError';
  constructor(
    readonly slug: string,
    cause: unknown,
  ) {
    super(
      `the article "${slug}" does not match the collection's schema: ${cause instanceof Error ? cause.message.trim() : String(cause)}`,
      { cause },
    );
  }
}

/**
 * The error that fails a build when the schema refused articles (the first named, the rest counted), with the
 * detail calls `unsent` after the first refusal (sync-apply's gate).
 */
export function schemaFailure(site: string, refused: readonly EntrySchemaError[], unsent = 0): Error {
  const [first] = refused;
  const spared =
    unsent > 0
      ? ` ${unsent} article${unsent === 1 ? ' was' : 's were'} not asked for after the first refusal (no request spent on what the schema would refuse alike); the next build asks for ${unsent === 1 ? 'it' : 'them'}.`
      : '';
  const more =
    refused.length > 1
      ? ` (and ${refused.length - 1} more: ${refused
          .slice(1, 4)
          .map((e) => `"${e.slug}"`)
          .join(', ')}${refused.length > 4 ? ', …' : ''})`
      : '';
  return new Error(
    `${PREFIX} The collection's schema refused ${refused.length} article(s) of ${site}${more}: ${first!.message}\nThe build stops rather than keep an old page silently; what was stored before is kept as it was.${spared} Fix the collection's \`schema\` in src/content.config.ts (or the article on the service) and build again.`,
    { cause: first },
  );
}

function isPlainObject(value: unknown): value is Data {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Every string of plain objects and arrays through `map` (Dates and other instances as they are). */
function mapStrings(value: unknown, map: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return map(value);
  if (depth > 20) return value;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map, depth + 1));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map, depth + 1)]));
}

const DOUBLE = IMAGE_IMPORT_PREFIX + IMAGE_IMPORT_PREFIX;

/** The data as the stored entry holds it after `store.set`: image fields as their plain paths. */
export function plainImageFields(data: Data): Data {
  return mapStrings(data, (text) =>
    text.startsWith(IMAGE_IMPORT_PREFIX) ? text.replace(/^(?:__ASTRO_IMAGE_)+/, '') : text,
  ) as Data;
}

/** The article's fields the schema ran on (held beside the entry); for an entry stored before they were kept, its data. */
export function serviceDataOf(entry: Pick<StoredEntry, 'data' | 'rendered'> | undefined): Data | undefined {
  if (!entry) return undefined;
  const held = entry.rendered?.metadata?.[SERVICE_DATA];
  return isPlainObject(held) ? held : entry.data;
}

/**
 * `rendered.metadata` with the article's fields beside it, unless they are the entry's `data` as stored (a
 * schema that reshapes nothing, the usual case): `serviceDataOf` then reads `data`, and the store, which Astro
 * serialises whole on every build, holds them once (devalue over a 10,000-article store: 1.26 s -> 0.96 s).
 */
export function withServiceData(metadata: object, serviceData: Data, data: Data): Record<string, unknown> {
  const { [SERVICE_DATA]: _previous, ...rest } = metadata as Record<string, unknown>;
  return isDeepStrictEqual(serviceData, data) ? rest : { ...rest, [SERVICE_DATA]: serviceData };
}

export interface ParsedEntry {
  /** For `store.set`: image fields prefixed, so the content layer resolves them to `ImageMetadata`. */
  stored: Data;
  /** As the stored entry holds it after `store.set` (for the digest and comparisons). */
  plain: Data;
  /** The schema's input to keep beside the entry, with the featured image's local copy as its plain path. */
  source: Data;
}

/**
 * Runs the collection's schema on an article's fields with the featured image's local copy (its path in
 * the image cache) as `featuredImageAsset`, prefixed as `store.set` resolves it: a schema may pass it on, map
 * it (`heroImage`), or run it through `image()` (which prefixes again; collapsed here). A refusal is an
 * `EntrySchemaError` naming the article.
 */
export async function parseEntry(
  ctx: Pick<LoaderContext, 'parseData'>,
  id: string,
  serviceData: Data,
  local: string | undefined,
): Promise<ParsedEntry> {
  const { featuredImageAsset: _previous, ...fields } = serviceData;
  const input = local ? { ...fields, featuredImageAsset: `${IMAGE_IMPORT_PREFIX}${local}` } : fields;
  let parsed: Data;
  try {
    parsed = await ctx.parseData({ id, data: input });
  } catch (error) {
    throw new EntrySchemaError(id, error);
  }
  const stored = mapStrings(parsed, (text) =>
    text.startsWith(DOUBLE) ? text.replace(/^(?:__ASTRO_IMAGE_)+/, IMAGE_IMPORT_PREFIX) : text,
  ) as Data;
  return {
    stored,
    plain: plainImageFields(stored),
    source: local ? { ...fields, featuredImageAsset: local } : fields,
  };
}
