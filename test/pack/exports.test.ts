// The public surface, pinned: every export of every subpath is a promise under semver, so adding or removing
// one must be a decision, made here. Internals (sync planning, retry timing, hints, redaction, schemas, the
// simulator's CLI runner and route keys) are imported by the tests from src/, never from the package.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${REPO}package.json`, 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
};

const CLIENT_ERRORS = [
  'ApiError',
  'CmsUnavailableError',
  'ConfigError',
  'ForbiddenError',
  'MissingApiKeyError',
  'NetworkError',
  'NotFoundError',
  'PaymentRequiredError',
  'PublisherError',
  'RateLimitError',
  'ResponseFormatError',
  'ServerError',
  'TimeoutError',
  'UnauthorizedError',
];
const LOADERS = {
  // articleDataSchema and the theme helpers: the README's "Mapping the articles to a theme's schema" (issue 11);
  // listCacheKey: the cacheKey of list pages in the incremental-build recipe (issue 12); cacheTags and
  // tagsForChangedArticles: the route cache's tags of on-demand pages (issue 19).
  runtime: [
    'StrictModeError',
    'articleDataSchema',
    'articlesLoader',
    'cacheTags',
    'digestLoader',
    'entryDescription',
    'keywordsLoader',
    'listCacheKey',
    'liveArticlesLoader',
    'readingTime',
    'starterFields',
    'tagsForChangedArticles',
  ],
  types: [
    'ArticleData',
    'ArticlesLoaderOptions',
    'BudgetOptions',
    'DataLoaderOptions',
    'DigestData',
    'Heading',
    'ImagesOptions',
    'KeywordData',
    'LiveArticleData',
    'LiveArticleEntryFilter',
    'LiveArticlesFilter',
    'LiveArticlesLoaderOptions',
    'SanitizeOptions',
    'StarterData',
    'StarterFields',
  ],
};

/** Per subpath: the names a program can import at run time, and the names that exist for TypeScript only. */
const SURFACE: Record<string, { runtime: string[]; types: string[] }> = {
  '.': {
    runtime: ['UpstreamFeedError', 'default', 'publisher'],
    types: [
      'DevRefreshOptions',
      'InvalidateOptions',
      'PublisherOptions',
      'RssOptions',
      'SitemapOptions',
      'UpstreamFailure',
    ],
  },
  './loaders': LOADERS,
  // The first name of the subpath, kept as an alias of ./loaders (as astro/loaders names it).
  './loader': LOADERS,
  './client': {
    runtime: [...CLIENT_ERRORS, 'createClient', 'isPublisherError'],
    types: [
      'Account',
      'ArticleDetail',
      'ArticleLength',
      'ArticleListItem',
      'ArticleQuery',
      'ArticleType',
      'AuditBody',
      'AuditResult',
      'BriefBody',
      'BriefResult',
      'Client',
      'ClientLogger',
      'ClientOptions',
      'Digest',
      'FeedConditions',
      'FeedResponse',
      'GenerateBody',
      'GenerateResult',
      'KeywordRecord',
      'PublisherErrorCode',
      'RateLimitState',
      'Site',
      'SnapshotResult',
      'Usage',
    ],
  },
  // The RSS route as a handler for an endpoint of the blog's own (issue 13).
  './rss': {
    runtime: ['rssHandler'],
    types: ['ExtraRssItem', 'RssHandlerOptions', 'RssItemView'],
  },
  // An article page's head in one call (issue 38): the helper, its JSON-LD escaping, and their types.
  './head': {
    runtime: ['articleHead', 'jsonLdText'],
    types: [
      'ArticleHead',
      'ArticleHeadEntry',
      'ArticleHeadOptions',
      'BlogPostingJsonLd',
      'HeadLink',
      'HeadMeta',
      'HeadParty',
      'JsonLdParty',
    ],
  },
  './simulator': {
    runtime: ['startSimulator'],
    types: [
      'FaultSpec',
      'ServiceVariants',
      'Simulator',
      'SimulatorOptions',
      'SimulatorRequestRecord',
      'SimulatorStats',
    ],
  },
};

/** The Astro components the package ships (`./components/ArticleHead.astro`): files, compiled by the blog's build. */
const COMPONENTS = ['./components/ArticleHead.astro'];
const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json' && !COMPONENTS.includes(key));
const specifier = (subpath: string): string => `astro-content-publisher${subpath.slice(1)}`;

const typesFile = (subpath: string): string => {
  const entry = pkg.exports[subpath];
  if (typeof entry !== 'object') throw new Error(`${subpath} has no types condition`);
  return `${REPO}${entry.types.slice(2)}`;
};
// One TypeScript program over every subpath's built declaration file.
const program = ts.createProgram(subpaths.map(typesFile), {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  noEmit: true,
  skipLibCheck: true,
});
const checker = program.getTypeChecker();

/** Every name a subpath's declaration file exports (values and types), as TypeScript reads it. */
function declaredExports(subpath: string): string[] {
  const source = program.getSourceFile(typesFile(subpath));
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`${typesFile(subpath)} is not a module (run \`npm run build\`)`);
  return checker
    .getExportsOfModule(symbol)
    .map((s) => s.getName())
    .sort();
}

describe('the public surface of every subpath', () => {
  it('the package exports exactly these subpaths', () => {
    expect(subpaths.sort()).toEqual(Object.keys(SURFACE).sort());
  });

  for (const subpath of Object.keys(SURFACE)) {
    const expected = SURFACE[subpath]!;
    it(`${specifier(subpath)}: exactly these runtime exports (from the built dist)`, async () => {
      const module = (await import(specifier(subpath))) as Record<string, unknown>;
      expect(Object.keys(module).sort()).toEqual([...expected.runtime].sort());
    });
    it(`${specifier(subpath)}: exactly these names in its declaration file`, () => {
      expect(declaredExports(subpath)).toEqual([...expected.runtime, ...expected.types].sort());
    });
  }

  it('the components subpaths: exactly these, each a file of the built package', () => {
    const shipped = Object.keys(pkg.exports).filter((key) => key.startsWith('./components/'));
    expect(shipped).toEqual(COMPONENTS);
    for (const key of shipped) {
      const target = pkg.exports[key];
      expect(typeof target).toBe('string');
      expect(readFileSync(`${REPO}${(target as string).slice(2)}`, 'utf8')).toContain('articleHead(');
    }
  });

  it('./loader and ./loaders are one module, not two copies', async () => {
    const [loader, loaders] = await Promise.all([
      import('astro-content-publisher/loader'),
      import('astro-content-publisher/loaders'),
    ]);
    expect(loader.articlesLoader).toBe(loaders.articlesLoader);
    expect(loader.StrictModeError).toBe(loaders.StrictModeError);
  });
});
