import { AstroError } from 'astro/errors';
import { baseUrlProblem } from '../../options/fields.js';
import { formatIssue } from '../../options/issues.js';
import { withPrefix } from '../../options/prefix.js';
import { publisherOptionsSchema, type ParsedPublisherOptions } from './options.js';
import type { RouteConfig } from '../settings/route-config.js';

/** The subset of the Astro config the options depend on. */
export interface AstroConfigView {
  site?: string | undefined;
  base: string;
  output: 'static' | 'server';
  trailingSlash: 'always' | 'never' | 'ignore';
  /**
   * `astro:config:setup`: a missing `site` is not an error yet (blogSite ''), since a theme's own integration
   * may set it after this one's setup; `astro:config:done` resolves again with the final config and requires it.
   */
  siteLater?: boolean;
}

export interface ResolvedOptions {
  options: ParsedPublisherOptions;
  /** Serialisable settings for the injected routes (no functions, no secrets). */
  route: RouteConfig;
  /** Whether the feed routes render at build time. */
  prerender: boolean;
}

const CONTEXT = { call: 'publisher()', docs: 'integration-options' } as const;

function fail(message: string, hint: string): never {
  throw new AstroError(withPrefix(message), hint);
}

/** PUBLISHER_BASE_URL, checked as the `baseUrl` option is (the option itself is checked by its schema). */
function parseEnvBaseUrl(raw: string): URL {
  const problem = baseUrlProblem(raw);
  if (problem) {
    fail(
      `PUBLISHER_BASE_URL ${problem}.`,
      'Set PUBLISHER_BASE_URL to the service address without /api/v1, such as "https://service.example.com".',
    );
  }
  return new URL(raw);
}

/**
 * Validates `publisher(options)` once, in `astro:config:setup`, and resolves the environment fallbacks.
 * Throws an AstroError naming the option and the fix: a bad config must fail the build, not silently
 * produce no sitemap.
 */
export function resolveOptions(
  input: unknown,
  astro: AstroConfigView,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedOptions {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    fail(
      `publisher() takes an options object (got ${Array.isArray(input) ? 'an array' : typeof input}).`,
      'Write publisher({ siteId: 12 }).',
    );
  }
  const parsed = publisherOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => formatIssue(issue, input, CONTEXT));
    fail(problems.map((p) => p.message).join(' '), problems[0]!.hint);
  }
  const options = parsed.data;

  let siteId = options.siteId;
  if (siteId === undefined) {
    const raw = env.PUBLISHER_SITE_ID?.trim();
    if (raw === undefined || raw === '') {
      fail(
        '`siteId` is missing.',
        'Set it in publisher({ siteId: 12 }) or in the environment variable PUBLISHER_SITE_ID.',
      );
    }
    if (!/^[1-9][0-9]*$/.test(raw)) {
      fail(
        `PUBLISHER_SITE_ID must be a positive integer (got ${JSON.stringify(raw)}).`,
        'Set PUBLISHER_SITE_ID to the id of your site in the service, or pass publisher({ siteId }).',
      );
    }
    siteId = Number(raw);
  }

  const rawBase = options.baseUrl ?? env.PUBLISHER_BASE_URL?.trim();
  if (rawBase === undefined || rawBase === '') {
    fail(
      '`baseUrl` is missing.',
      'Set publisher({ baseUrl: "https://service.example.com" }) or the environment variable PUBLISHER_BASE_URL (the service address, without /api/v1).',
    );
  }
  const baseUrl = options.baseUrl !== undefined ? new URL(options.baseUrl) : parseEnvBaseUrl(rawBase);

  const feedsEnabled = options.sitemap !== false || options.rss !== false;
  let blogSite = '';
  if (feedsEnabled && (astro.site || !astro.siteLater)) {
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
    fail(
      `\`sitemap.path\` and \`rss.path\` are both "${options.rss.path}".`,
      'Give the two routes different paths, such as "/sitemap.xml" and "/rss.xml".',
    );
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
    sitemap:
      options.sitemap === false
        ? false
        : { path: options.sitemap.path, maxUrlsPerFile: options.sitemap.maxUrlsPerFile },
    rss:
      options.rss === false
        ? false
        : {
            path: options.rss.path,
            ...(options.rss.title !== undefined ? { title: options.rss.title } : {}),
            ...(options.rss.description !== undefined ? { description: options.rss.description } : {}),
            ...(options.rss.language !== undefined ? { language: options.rss.language } : {}),
          },
    dev: false,
    localPages: [],
  };
  const prerender = options.prerender ?? astro.output === 'static';
  return { options: { ...options, siteId }, route, prerender };
}
