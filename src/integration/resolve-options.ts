import { AstroError } from 'astro/errors';
import { describeUnparsedUrl } from '../client/redact.js';
import type { z } from 'zod';
import { publisherOptionsSchema, type ParsedPublisherOptions } from './options.js';
import type { RouteConfig } from './route-config.js';

const PREFIX = '[astro-content-publisher]';
const FIX = 'Fix it in publisher({ ... }) in astro.config.mjs.';

/** The subset of the Astro config the options depend on. */
export interface AstroConfigView {
  site?: string | undefined;
  base: string;
  output: 'static' | 'server';
  trailingSlash: 'always' | 'never' | 'ignore';
}

export interface ResolvedOptions {
  options: ParsedPublisherOptions;
  /** Serialisable settings for the injected routes (no functions, no secrets). */
  route: RouteConfig;
  /** Whether the feed routes render at build time. */
  prerender: boolean;
}

type Issue = z.core.$ZodIssue;

/** One readable line per issue, naming the option by its dotted path. */
function describeIssue(issue: Issue): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((key) => `\`${path ? `${path}.` : ''}${key}\``).join(', ');
    return `Unknown option ${names}: remove it or check its spelling (see https://www.npmjs.com/package/astro-content-publisher#integration-options).`;
  }
  if (issue.code === 'invalid_union') {
    // Show the most specific branch (e.g. the object's field error rather than "expected false").
    const nested = issue.errors.flat().find((e) => e.path.length > 0);
    if (nested) return describeIssue({ ...nested, path: [...issue.path, ...nested.path] });
  }
  return issue.message.startsWith('`') ? issue.message : `\`${path || 'options'}\`: ${issue.message}`;
}

function fail(message: string, hint: string): never {
  throw new AstroError(`${PREFIX} ${message}`, hint);
}

function parseBaseUrl(raw: string, from: 'option' | 'env'): URL {
  const source = from === 'option' ? '`baseUrl`' : 'PUBLISHER_BASE_URL';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(`${source} must be an absolute http(s) URL (got ${describeUnparsedUrl(raw)}).`, 'Use the service address without /api/v1, such as "https://service.example.com".');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail(`${source} must use http or https (got "${url.protocol}").`, 'Use the service address, such as "https://service.example.com".');
  }
  if (url.username || url.password) {
    fail(`${source} must not contain credentials.`, 'The public feeds need no credentials: remove "user:password@" from the URL.');
  }
  if (url.search || url.hash) {
    fail(`${source} must not contain a query or a fragment.`, 'Use the bare service address, such as "https://service.example.com".');
  }
  return url;
}

/**
 * Validates `publisher(options)` once, in `astro:config:setup`, and resolves the environment fallbacks.
 * Throws an AstroError naming the option and the fix: a bad config must fail the build, not silently
 * produce no sitemap.
 */
export function resolveOptions(input: unknown, astro: AstroConfigView, env: NodeJS.ProcessEnv = process.env): ResolvedOptions {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    fail(`publisher() takes an options object (got ${Array.isArray(input) ? 'an array' : typeof input}).`, 'Write publisher({ siteId: 12 }).');
  }
  const parsed = publisherOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const lines = parsed.error.issues.map(describeIssue);
    fail(lines.join(' '), `${FIX} Every option and its default: https://www.npmjs.com/package/astro-content-publisher#integration-options`);
  }
  const options = parsed.data;

  let siteId = options.siteId;
  if (siteId === undefined) {
    const raw = env.PUBLISHER_SITE_ID?.trim();
    if (raw === undefined || raw === '') {
      fail('`siteId` is missing.', 'Set it in publisher({ siteId: 12 }) or in the environment variable PUBLISHER_SITE_ID.');
    }
    if (!/^[1-9][0-9]*$/.test(raw)) {
      fail(`PUBLISHER_SITE_ID must be a positive integer (got ${JSON.stringify(raw)}).`, 'Set PUBLISHER_SITE_ID to the id of your site in the service, or pass publisher({ siteId }).');
    }
    siteId = Number(raw);
  }

  const rawBase = options.baseUrl ?? env.PUBLISHER_BASE_URL?.trim();
  if (rawBase === undefined || rawBase === '') {
    fail('`baseUrl` is missing.', 'Set publisher({ baseUrl: "https://service.example.com" }) or the environment variable PUBLISHER_BASE_URL (the service address, without /api/v1).');
  }
  const baseUrl = parseBaseUrl(rawBase, options.baseUrl !== undefined ? 'option' : 'env');

  const feedsEnabled = options.sitemap !== false || options.rss !== false;
  let blogSite = '';
  if (feedsEnabled) {
    if (!astro.site) {
      fail(
        'The Astro config has no `site`: the sitemap and RSS routes need it to rewrite every URL to the blog.',
        'Add `site: "https://your-blog.example.com"` to defineConfig() in astro.config.mjs, or disable both routes with publisher({ sitemap: false, rss: false }).',
      );
    }
    const site = new URL(astro.site);
    const base = `/${astro.base.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');
    blogSite = new URL(base, site.origin).href;
  }
  if (options.sitemap !== false && options.rss !== false && options.sitemap.path === options.rss.path) {
    fail(`\`sitemap.path\` and \`rss.path\` are both "${options.rss.path}".`, 'Give the two routes different paths, such as "/sitemap.xml" and "/rss.xml".');
  }

  const apiBase = baseUrl.href.replace(/\/+$/, '');
  const route: RouteConfig = {
    siteId,
    serviceOrigin: baseUrl.origin,
    sitemapUrl: `${apiBase}/api/sites/${siteId}/sitemap.xml`,
    rssUrl: `${apiBase}/api/sites/${siteId}/rss.xml`,
    blogSite,
    articlePattern: options.articlePattern,
    trailingSlash: astro.trailingSlash,
    timeoutMs: options.timeoutMs,
    sitemap: options.sitemap === false ? false : { path: options.sitemap.path, maxUrlsPerFile: options.sitemap.maxUrlsPerFile },
    rss: options.rss === false ? false : { path: options.rss.path },
    dev: false,
    localPages: [],
  };
  const prerender = options.prerender ?? astro.output === 'static';
  return { options: { ...options, siteId }, route, prerender };
}
