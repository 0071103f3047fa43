import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { SANITIZER_POLICY_VERSION } from '../../html/index.js';

/** The package's own version, read once (dist/loader/state/ -> package.json three levels up). */
export const PACKAGE_VERSION: string = (() => {
  try {
    const require = createRequire(import.meta.url);
    return (require('../../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

/** Canonical JSON (sorted keys) so that option order never changes a fingerprint. */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value instanceof Date) return JSON.stringify(Number.isNaN(value.getTime()) ? null : value.toISOString());
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * What the stored HTML depends on besides the article itself: this package's version, the sanitiser policy
 * and the user's sanitise options. When it changes, entries are re-fetched (or re-sanitised from the feed)
 * progressively, and kept meanwhile. Budget, refresh and strict do not change the HTML and are left out.
 */
export function loaderFingerprint(
  parts: { siteId: number; sanitize?: unknown },
  version = PACKAGE_VERSION,
  policy = SANITIZER_POLICY_VERSION,
): string {
  return shortHash(stableStringify({ v: version, policy, siteId: parts.siteId, sanitize: parts.sanitize ?? null }));
}

/**
 * A key that differs for every site and filter combination, so that several loaders (sites, languages) in
 * one project never read each other's state, and so that Astro's logger names which one speaks.
 */
export function loaderKey(parts: {
  siteId: number;
  language?: string | undefined;
  status?: string | readonly string[] | undefined;
  limit?: number | undefined;
}): string {
  // `published` is the default: the key (and the state kept under it) stays what it was before it was one.
  const status = [parts.status ?? []].flat().filter((s) => s !== 'published');
  const filters = [
    parts.language ? `lang-${parts.language}` : '',
    status.length ? `status-${[parts.status].flat().join('+')}` : '',
    parts.limit ? `limit-${parts.limit}` : '',
  ].filter(Boolean);
  return [`site-${parts.siteId}`, ...filters].join(':');
}
