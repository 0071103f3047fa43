/**
 * The judgement after every good build of the model site, from what `astro preview` serves (HTTP only), against
 * the service's truth the model keeps (service.ts): each published article's page shows its current title, body
 * and featured image, or is behind only where the model's accounting of the build says the loader could not have
 * fetched it (serviceExcuses); no page shows another article's or language's content, a body the service never
 * published (a draft), a cut copy, or an older body than it showed before; every
 * URL of the sitemap(s), the feed and robots.txt, every in-article link to the blog and every `img`
 * `src`/`srcset` answers 200; a link never points at the service for an article the blog has; a page once
 * served stays while its article is published.
 */
import { preview } from 'astro';
import type { Simulator } from '../../src/simulator/index.js';
import { featuredVersion, itemLinksOf, locsOf, readPage, type PageView } from './page-view.js';
import { serviceExcuses } from './excuses.js';
import { BUDGET, FIXTURE, type BuildRun, type SiteDirs } from './runner.js';
import {
  cover,
  keyOf,
  keysOfArticle,
  SERVICE_ORIGIN,
  shadowed,
  unreachable,
  type Article,
  type Model,
  type Shown,
} from './service.js';

const BLOG = 'https://blog.example.com';

/** One problem found, with the kind of check that found it. */
export interface Problem {
  kind: string;
  detail: string;
}

/** Serves the outDir with `astro preview` while `check` runs. */
async function withPreview<T>(dirs: SiteDirs, check: (origin: string) => Promise<T>): Promise<T> {
  // No service settings: preview serves files and never calls the service.
  const server = await preview({
    root: FIXTURE,
    outDir: dirs.outDir,
    logLevel: 'error',
    server: { port: 0, host: '127.0.0.1' },
  });
  try {
    return await check(`http://127.0.0.1:${server.port}`);
  } finally {
    await server.stop();
  }
}

/** `final`: after convergence, only an article out of the loader's reach may be behind the service. */
export async function checkSite(
  model: Model,
  sim: Simulator,
  dirs: SiteDirs,
  run: BuildRun,
  final: boolean,
): Promise<Problem[]> {
  return withPreview(dirs, (origin) => judge(model, sim, run, origin, final));
}

async function judge(model: Model, sim: Simulator, run: BuildRun, origin: string, final: boolean): Promise<Problem[]> {
  const problems: Problem[] = [];
  const statuses = new Map<string, number>();
  /** GET a URL of the blog (via the preview server) or of the simulator, once per check. */
  const status = async (url: string): Promise<number> => {
    const local = url.startsWith(BLOG) ? origin + url.slice(BLOG.length) : url;
    if (!local.startsWith(origin) && !local.startsWith(sim.url)) return -1;
    const known = statuses.get(local);
    if (known !== undefined) return known;
    const response = await fetch(local, { redirect: 'manual' });
    await response.arrayBuffer();
    statuses.set(local, response.status);
    return response.status;
  };
  const expect200 = async (kind: string, url: string, from: string) => {
    const code = await status(url);
    if (code !== 200)
      problems.push({
        kind,
        detail: `${url} (in ${from}) answered ${code === -1 ? 'nothing: not the blog nor the service' : code}`,
      });
  };

  // The pages of every article the service has or had.
  const pages = new Map<string, { article: Article; view?: PageView; code: number }>();
  for (const article of [...model.published.values(), ...model.unpublished.values(), ...model.drafts.values()]) {
    const response = await fetch(`${origin}/${article.lang}/blog/${article.slug}/`, { redirect: 'manual' });
    const html = await response.text();
    pages.set(keyOf(article.lang, article.slug), {
      article,
      code: response.status,
      ...(response.status === 200 ? { view: readPage(html) } : {}),
    });
  }

  // The body version each page of this build shows: what the loader holds (unreachable() reads it).
  const heldVersion = (other: Article) => {
    const view = pages.get(keyOf(other.lang, other.slug))?.view;
    return view && view.redirectTo === undefined ? view.markers[0]?.version : undefined;
  };
  const behind: Array<{ article: Article; stale: string[] }> = [];
  for (const [key, page] of pages) {
    const { article } = page;
    const published = model.published.has(key);
    if (page.code !== 200 && page.code !== 404) problems.push({ kind: 'page', detail: `${key} answered ${page.code}` });
    if (!page.view) {
      if (!published) continue;
      if (model.served.has(key))
        problems.push({ kind: 'lost', detail: `${key} was served by an earlier build, now ${page.code}` });
      behind.push({ article, stale: ['no page'] });
      if (final && !unreachable(model, article, heldVersion))
        problems.push({ kind: 'converged', detail: `${key} has no page after the quiet builds` });
      continue;
    }
    if (page.view.redirectTo !== undefined) {
      // A redirect page: only at the old URL of a renamed article, to a page of that same article the blog serves.
      const urls = [...keysOfArticle(model, key)]
        .filter((other) => other !== key)
        .map((other) => `${BLOG}/${other.replace(':', '/blog/')}/`);
      if (published || !urls.includes(decodeURI(page.view.redirectTo)))
        problems.push({
          kind: 'redirect',
          detail: `${key} redirects to ${page.view.redirectTo}, ${published ? 'though it is published' : `which is none of its renamed article's URLs (${urls.join(', ') || 'none'})`}`,
        });
      else {
        cover(model, 'redirect from an old slug');
        await expect200('redirect', page.view.redirectTo, key);
      }
      continue;
    }
    const shown = ownContent(page.view, article, problems);
    if (!published || !shown) continue;
    const stale = staleFields(shown, article);
    if (stale.length) behind.push({ article, stale });
    // Out of reach: all of an unreachable article; the featured image of one whose detail answers elsewhere.
    const blocking = unreachable(model, article, heldVersion)
      ? []
      : shadowed(model, article)
        ? stale.filter((field) => !field.startsWith('featured '))
        : stale;
    if (blocking.length && final)
      problems.push({
        kind: 'converged',
        detail: `${key} is still behind after the quiet builds: ${blocking.join(', ')}`,
      });
    const before = model.served.get(key);
    if (before && shown.version < before.version)
      problems.push({ kind: 'regressed', detail: `${key} showed body v${before.version}, now v${shown.version}` });
  }
  // Behind the service only where the service's own records of this build say the loader could not have
  // caught up (never the build's count of pending articles): its list call in that language failed, the
  // article's detail call failed, or the calls of that language used up its budget.
  const excuse = serviceExcuses(model, run);
  for (const { article, stale } of behind) {
    // Out of the loader's reach (the model's own account, README): all of an article whose slug's detail answers
    // another language and whose feed copy is a teaser; with a whole feed, only its featured image.
    const reachable = unreachable(model, article, heldVersion)
      ? []
      : shadowed(model, article)
        ? stale.filter((field) => !field.startsWith('featured '))
        : stale;
    if (reachable.length === 0 || excuse(article.lang, article.slug) !== undefined) continue;
    problems.push({
      kind: 'stale',
      detail: `${keyOf(article.lang, article.slug)} (${reachable.join(', ')}) behind the service, though the service answered its list and detail calls and the ${article.lang} calls (${excuse.spent(article.lang)}) left budget (${BUDGET})`,
    });
  }

  // Images and in-article links of every page served.
  for (const [key, page] of pages) {
    if (!page.view) continue;
    const from = `/${page.article.lang}/blog/${page.article.slug}/`;
    const pageUrl = BLOG + from;
    for (const img of page.view.bodyImgs)
      for (const url of [img.src, ...img.srcset]) await expect200('img', new URL(url, pageUrl).href, from);
    const featured = page.view.featuredImg;
    if (featured)
      for (const url of [featured.src, ...featured.srcset]) await expect200('img', new URL(url, pageUrl).href, from);
    const original = page.view.ogImage;
    // The original (`featuredImageAsset.src`), as themes put it in og:image.
    if (original) await expect200('img', original, `${from} og:image`);
    if (featured) {
      const src = new URL(featured.src, pageUrl).href;
      // The blog's own copy (<Image> of the local asset), unless the service failed to serve that image to a build.
      const failed = model.imageFailures.has(new URL(page.view.featuredUrl, sim.url).pathname);
      if (!src.startsWith(BLOG) && !failed)
        problems.push({
          kind: 'featured',
          detail: `${key}: the featured image is ${featured.src}, not the blog's copy, though the service served it to every build`,
        });
    }
    for (const href of page.view.links) {
      const target = new URL(href, pageUrl);
      if (target.origin === BLOG) await expect200('link', target.href, from);
      if (target.origin !== SERVICE_ORIGIN) continue;
      const service = /^\/(\w+)\/blog\/([^/]+)\/$/.exec(target.pathname);
      const linked = service ? `${service[1]}:${decodeURIComponent(service[2]!)}` : undefined;
      if (linked === undefined || !page.article.linksEver.includes(linked))
        problems.push({ kind: 'link', detail: `${key} links to ${href}, which the model never put there` });
      else if (pages.get(linked)?.view && model.published.has(linked))
        problems.push({ kind: 'stale-link', detail: `${key} links to ${href}, an article the blog has` });
    }
  }

  // The routes: sitemap (and its parts), feed, robots.txt.
  const sitemap = await (await fetch(`${origin}/sitemap.xml`)).text();
  const locs = locsOf(sitemap);
  const parts = sitemap.includes('<sitemapindex') ? locs : [];
  const urls = parts.length ? [] : locs;
  for (const part of parts) {
    await expect200('sitemap', part, 'sitemap index');
    const local = part.startsWith(BLOG) ? origin + part.slice(BLOG.length) : part;
    urls.push(...locsOf(await (await fetch(local)).text()));
  }
  for (const url of urls) await expect200('sitemap', url, 'sitemap');
  for (const link of itemLinksOf(await (await fetch(`${origin}/rss.xml`)).text())) await expect200('rss', link, 'rss');
  const robots = await fetch(`${origin}/robots.txt`);
  const robotsText = await robots.text();
  if (robots.status !== 200) problems.push({ kind: 'robots', detail: `/robots.txt answered ${robots.status}` });
  for (const match of robotsText.matchAll(/^Sitemap:\s*(\S+)/gim)) await expect200('robots', match[1]!, 'robots.txt');

  // What each published page showed, for the next build's "lost" and "regressed" checks.
  for (const [key, page] of pages) {
    if (!page.view || !model.published.has(key)) continue;
    const shown = ownContent(page.view, page.article, []);
    if (shown) model.served.set(key, shown);
  }
  return problems;
}

/** The page shows its own article only (marker, title, featured image); what it shows, if readable. */
function ownContent(view: PageView, article: Article, problems: Problem[]): Shown | undefined {
  const key = keyOf(article.lang, article.slug);
  const foreign = view.markers.filter((m) => m.key !== key);
  if (foreign.length || view.markers.length !== 1) {
    problems.push({ kind: 'foreign', detail: `${key} shows the body markers ${JSON.stringify(view.markers)}` });
    return undefined;
  }
  const version = view.markers[0]!.version;
  if (!article.publishedVersions.includes(version))
    problems.push({
      kind: 'draft',
      detail: `${key} shows body v${version}, which the service never published (published: ${article.publishedVersions.join(', ') || 'none'}; status now ${article.status})`,
    });
  // Whole: a cut (or teaser) copy lacks the tail of its version.
  if (JSON.stringify(view.tails) !== JSON.stringify([{ key, version }]))
    problems.push({
      kind: 'cut',
      detail: `${key} shows body v${version} with the tails ${JSON.stringify(view.tails)}`,
    });
  if (view.title === undefined || !article.titles.includes(view.title))
    problems.push({ kind: 'foreign', detail: `${key} shows the title ${JSON.stringify(view.title)}` });
  const featured = featuredVersion(view.featuredUrl, article.lang, article.slug);
  if (featured === 'foreign') {
    problems.push({ kind: 'foreign', detail: `${key} names the featured image ${view.featuredUrl}` });
    return undefined;
  }
  if ((featured === null) !== (view.featuredImg === undefined))
    problems.push({
      kind: 'featured',
      detail: `${key}: featured image ${view.featuredUrl || 'none'}, element ${view.featuredImg ? 'shown' : 'absent'}`,
    });
  return { title: view.title ?? '', version, featured, images: view.bodyImgs.length };
}

function staleFields(shown: Shown, article: Article): string[] {
  const out: string[] = [];
  if (shown.title !== article.title) out.push(`title "${shown.title}"`);
  if (shown.version !== article.version) out.push(`body v${shown.version} of v${article.version}`);
  if (shown.featured !== article.featured) out.push(`featured ${shown.featured} of ${article.featured}`);
  if (shown.version === article.version && shown.images !== article.images)
    out.push(`${shown.images} images of ${article.images}`);
  return out;
}
