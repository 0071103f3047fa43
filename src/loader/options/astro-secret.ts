import { liveArticlesLoaderOptionsSchema, parseOptions } from './options.js';

interface AstroEnvServer {
  getSecret(key: string): string | undefined;
}

/**
 * Reads a secret the way Astro users expect: `getSecret` from `astro:env/server` (`.env` files in dev, the
 * adapter's runtime environment on server and edge adapters, where `process.env` may not exist), then
 * `process.env` where `astro:env` is not available (a loader used outside Vite, tests, scripts).
 * Read at request time, not at import: an edge adapter only provides its environment to a request.
 */
export async function readSecret(
  key: string,
  env: Record<string, string | undefined> | undefined = globalThis.process?.env,
): Promise<string | undefined> {
  try {
    // A literal specifier, so that Vite resolves Astro's virtual module when it bundles this package (the
    // integration marks it `noExternal`); plain Node refuses the `astro:` scheme and we fall through.
    const mod = (await import('astro:env/server')) as AstroEnvServer;
    const value = mod.getSecret(key);
    if (value) return value;
  } catch {
    // Not bundled by Vite (or an Astro without astro:env): the environment is all there is.
  }
  return env?.[key] || undefined;
}

/**
 * The live loader's schema with the key, the service address and the site optional at construction: read at the
 * first request when missing at import, so that a missing one is the error of each call, not a throw while Astro
 * imports live.config.ts (which fails every page that imports astro:content).
 */
export const liveLoaderConstructionSchema = liveArticlesLoaderOptionsSchema.extend({
  apiKey: liveArticlesLoaderOptionsSchema.shape.apiKey.optional(),
  baseUrl: liveArticlesLoaderOptionsSchema.shape.baseUrl.optional(),
  siteId: liveArticlesLoaderOptionsSchema.shape.siteId.optional(),
});

/** The live loader's key: the option when given, else `PUBLISHER_API_KEY` through `readSecret`, validated. */
export async function liveApiKey(configured: string | undefined): Promise<string> {
  const apiKey = configured ?? (await readSecret('PUBLISHER_API_KEY'));
  return parseOptions(liveArticlesLoaderOptionsSchema.pick({ apiKey: true }), 'liveArticlesLoader', { apiKey }).apiKey;
}

/** The live loader's service address: the option (or PUBLISHER_BASE_URL at import) when given, else `PUBLISHER_BASE_URL` now. */
export async function liveBaseUrl(configured: string | undefined, allowInsecureHttp: boolean): Promise<string> {
  if (configured !== undefined) return configured;
  const baseUrl = await readSecret('PUBLISHER_BASE_URL');
  const schema = liveArticlesLoaderOptionsSchema.pick({ baseUrl: true, allowInsecureHttp: true });
  return parseOptions(schema, 'liveArticlesLoader', { baseUrl, allowInsecureHttp }).baseUrl;
}

/** The live loader's site: the option (or PUBLISHER_SITE_ID at import) when given, else `PUBLISHER_SITE_ID` now. */
export async function liveSiteId(configured: number | undefined): Promise<number> {
  if (configured !== undefined) return configured;
  const text = await readSecret('PUBLISHER_SITE_ID');
  // A number when it is one (as at import, withEnvDefaults): anything else is refused naming what was set.
  const siteId = text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : text;
  return parseOptions(liveArticlesLoaderOptionsSchema.pick({ siteId: true }), 'liveArticlesLoader', { siteId }).siteId;
}
