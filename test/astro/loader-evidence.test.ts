/**
 * Issue 36: the loader decides from evidence. Each service behaviour below is one that API.md allows without
 * pinning it down ("not shown"), played by the simulator's faults (a response replaced as a real service would
 * answer); the loader runs over real HTTP with an in-memory store. What is checked is what a reader would see
 * (the stored entries, their language and body) and what the service counted (requests).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { articlesLoader } from '../../src/loader/index.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';
import { addFault, hits, patchArticle, publish, ROUTES, unpublish } from '../faults/helpers.js';
import { fakeDateAhead } from '../support/timing.js';
import { fakeContext, type FakeContext } from './loader-context.js';
import { admin, publishModelArticle } from './loader-harness.js';

const opened: Simulator[] = [];
async function sim(options: SimulatorOptions = {}): Promise<Simulator> {
  const started = await startSimulator({ articles: 12, rateLimitOverride: 100_000, ...options });
  opened.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

interface ListItem {
  slug: string;
  title: string;
  status: string;
  language: string;
  published_at: string;
  view_count: number;
}
const auth = (s: Simulator) => ({ headers: { authorization: `Bearer ${s.tokens.pro}` } });
async function listAll(s: Simulator, query = ''): Promise<ListItem[]> {
  const body = (await (await fetch(`${s.url}/api/v1/sites/12/articles/${query}`, auth(s))).json()) as {
    results: ListItem[];
  };
  return body.results;
}
async function detailOf(s: Simulator, slug: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${s.url}/api/v1/sites/12/articles/${slug}/`, auth(s))).json()) as Record<string, unknown>;
}
const publicFeed = async (s: Simulator, name: 'rss.xml' | 'sitemap.xml') =>
  (await fetch(`${s.url}/api/sites/12/${name}`)).text();

type Loader = ReturnType<typeof articlesLoader>;
function setup(s: Simulator, extra: Record<string, unknown> = {}): { loader: Loader; ctx: FakeContext } {
  const loader = articlesLoader({ siteId: 12, baseUrl: s.url, apiKey: s.tokens.pro, images: false, ...extra });
  return { loader, ctx: fakeContext(loader.schema) };
}
/** One build: the log lines it printed and the requests the service counted, by route. */
async function build(s: Simulator, { loader, ctx }: { loader: Loader; ctx: FakeContext }) {
  s.resetStats();
  await loader.load(ctx.context);
  const stats = s.stats();
  return {
    lines: ctx.take(),
    list: hits(stats, ROUTES.list),
    details: hits(stats, ROUTES.detail),
    detailOf: (slug: string) => stats.requests.filter((r) => r.path === `/api/v1/sites/12/articles/${slug}/`).length,
    listQueries: stats.requests.filter((r) => r.route === ROUTES.list).map((r) => r.query ?? ''),
  };
}
const html = (ctx: FakeContext, slug: string) => ctx.entries.get(slug)?.rendered?.html ?? '';

describe('only published articles are built', () => {
  it('a draft and an unknown status in a list that ignores `status` are never stored nor asked for, and said once', async () => {
    const s = await sim();
    const real = await listAll(s);
    const draft = { ...real[0]!, slug: 'secret-draft', title: 'Secret draft', status: 'draft' };
    const odd = { ...real[1]!, slug: 'odd-status', title: 'Odd', status: 'pending_review' };
    await addFault(s, { route: ROUTES.list, json: { results: [draft, odd, ...real] } });
    const secret = { ...(await detailOf(s, real[0]!.slug)), slug: 'secret-draft', status: 'draft' };
    await addFault(s, { route: 'GET /api/v1/sites/12/articles/secret-draft/', json: secret });
    const site = setup(s);
    const first = await build(s, site);
    expect([...site.ctx.entries.keys()].sort()).toEqual(real.map((a) => a.slug).sort());
    expect(first.detailOf('secret-draft') + first.detailOf('odd-status')).toBe(0);
    expect(first.listQueries).toEqual(['status=published']);
    expect(first.lines.filter((l) => /status/.test(l) && /secret-draft/.test(l))).toHaveLength(1);
    expect(first.lines.find((l) => /secret-draft/.test(l))).toMatch(/^warn .*2 .*not "published"/);
    // A warm build: one request, and the condition as an info line, not a new warning.
    const warm = await build(s, site);
    expect(warm.list + warm.details).toBe(1);
    expect(warm.lines.filter((l) => l.startsWith('warn '))).toEqual([]);
  });

  it('`status` widens the set explicitly: a list of several statuses is sent without the filter and checked', async () => {
    const s = await sim();
    const real = await listAll(s);
    const scheduled = { ...real[0]!, slug: 'soon', status: 'scheduled' };
    await addFault(s, { route: ROUTES.list, json: { results: [scheduled, ...real] } });
    await addFault(s, {
      route: 'GET /api/v1/sites/12/articles/soon/',
      json: { ...(await detailOf(s, real[0]!.slug)), slug: 'soon', status: 'scheduled' },
    });
    const site = setup(s, { status: ['published', 'scheduled'] });
    const { listQueries } = await build(s, site);
    expect(listQueries).toEqual(['']);
    expect(site.ctx.entries.has('soon')).toBe(true);
    expect(site.ctx.entries.size).toBe(13);
  });
});

describe('an entry holds only its own language', () => {
  it('a list that ignores `language` fills the collection with its own language only, and says so', async () => {
    const s = await sim();
    const all = await listAll(s);
    await addFault(s, { route: ROUTES.list, json: { results: all } });
    const site = setup(s, { language: 'en' });
    const { lines } = await build(s, site);
    const english = all.filter((a) => a.language === 'en').map((a) => a.slug);
    expect(english.length).toBeGreaterThan(0);
    expect([...site.ctx.entries.keys()].sort()).toEqual(english.sort());
    expect([...site.ctx.entries.values()].map((e) => e.data.language)).toEqual(english.map(() => 'en'));
    expect(lines.filter((l) => /ignored|not in "en"|language/.test(l) && l.startsWith('warn '))).toHaveLength(1);
  });

  it("a slug's only feed item, at another language's URL, never becomes the entry (cold build over budget)", async () => {
    const s = await sim();
    const listed = await listAll(s);
    const first = listed[0];
    const second = listed.find((a, i) => i > 0 && a.language === 'en');
    // The feed's item for an English article names it at a French URL with a French body.
    // (Only its <link> and <guid>: the other articles' bodies link to it and must stay as they are.)
    const rss = (await publicFeed(s, 'rss.xml'))
      .replace(
        /(<(link|guid)[^>]*>[^<]*)\/blog\/([^/<]+)\/(<\/\2>)/g,
        (whole, head: string, _tag, slug: string, tail: string) =>
          slug === second!.slug ? `${head}/fr/blog/${slug}/${tail}` : whole,
      )
      .replace(
        /(<item>(?:(?!<\/item>)[\s\S])*?\/fr\/blog\/[\s\S]*?<content:encoded><!\[CDATA\[)/,
        '$1<p>CORPS-FRANCAIS</p>',
      );
    expect(rss).toContain('CORPS-FRANCAIS');
    await addFault(s, { route: ROUTES.rss, body: rss });
    // The list call and one detail: everything else could only come from the feed.
    const site = setup(s, { budget: { maxRequests: 2, reserve: 0 } });
    await build(s, site);
    for (const [slug, entry] of site.ctx.entries) {
      expect(entry.rendered?.html, slug).not.toContain('CORPS-FRANCAIS');
      expect(String(entry.data.url ?? ''), slug).not.toContain('/fr/blog/');
    }
    expect(site.ctx.entries.has(first!.slug)).toBe(true);
  });
});

describe('content is replaced only by a copy proven newer and whole', () => {
  it('an edit of the body and of the featured image is applied whole, in the build that sees it', async () => {
    const s = await sim();
    const site = setup(s);
    await build(s, site);
    const [target] = await listAll(s);
    const image = 'https://cdn.example.com/media/new-cover.jpg';
    await patchArticle(s, 12, target!.slug, { content: '<p>Edited body.</p>', featured_image: image });
    const edited = await build(s, site);
    expect(html(site.ctx, target!.slug)).toContain('Edited body.');
    expect(site.ctx.entries.get(target!.slug)!.data.featuredImage).toMatch(/new-cover\.jpg$/);
    expect(edited.list + edited.details).toBe(2);
    const warm = await build(s, site);
    expect(warm.list + warm.details).toBe(1);
  });

  it('an older copy of the feed (another CDN edge) never brings the older body back', async () => {
    const s = await sim();
    const site = setup(s);
    await build(s, site);
    const [target] = await listAll(s);
    const older = await publicFeed(s, 'rss.xml');
    await patchArticle(s, 12, target!.slug, { content: '<p>Newer body.</p>' });
    await build(s, site);
    expect(html(site.ctx, target!.slug)).toContain('Newer body.');
    for (let i = 0; i < 3; i++) {
      // Edges of different ages answer in turn.
      if (i % 2 === 0) await addFault(s, { route: ROUTES.rss, body: older, times: 1 });
      await build(s, site);
      expect(html(site.ctx, target!.slug), `build ${i}`).toContain('Newer body.');
    }
  });

  it('a feed that cuts long bodies: a cut body is never stored, also when one article matches its detail', async () => {
    const s = await sim();
    const [first] = await listAll(s);
    // Every item's content:encoded cut to its first 200 characters but the first article's.
    const rss = (await publicFeed(s, 'rss.xml')).replace(
      /<item>([\s\S]*?)<content:encoded><!\[CDATA\[([\s\S]*?)\]\]><\/content:encoded>/g,
      (whole, head: string, body: string) =>
        head.includes(`/blog/${first!.slug}/`)
          ? whole
          : `<item>${head}<content:encoded><![CDATA[${body.slice(0, 200)}<p>CUT-HERE</p>]]></content:encoded>`,
    );
    expect(rss).toContain('CUT-HERE');
    await addFault(s, { route: ROUTES.rss, body: rss });
    const site = setup(s, { budget: { maxRequests: 2, reserve: 0 } });
    const { lines } = await build(s, site);
    for (const [slug, entry] of site.ctx.entries) expect(entry.rendered?.html, slug).not.toContain('CUT-HERE');
    expect(site.ctx.entries.has(first!.slug)).toBe(true);
    expect(lines.join('\n')).toMatch(/11 pending/);
  });

  it('a change that does not fit the budget is fetched first in the next build, even when the feed then looks unchanged', async () => {
    const s = await sim();
    const site = setup(s);
    await build(s, site);
    const [a, b] = await listAll(s);
    const older = await publicFeed(s, 'rss.xml');
    await patchArticle(s, 12, a!.slug, { content: '<p>Change A.</p>' });
    await patchArticle(s, 12, b!.slug, { content: '<p>Change B.</p>' });
    // Only the feed shows the change (the list and the sitemap do not move for a body edit in this variant).
    const tight = {
      ...site,
      loader: articlesLoader({
        siteId: 12,
        baseUrl: s.url,
        apiKey: s.tokens.pro,
        images: false,
        budget: { maxRequests: 2, reserve: 0 },
      }),
    };
    const first = await build(s, tight);
    expect(first.details).toBe(1);
    expect(first.lines.join('\n')).toMatch(/1 pending/);
    // The next build is served the older feed copy: the pending change is still fetched.
    await addFault(s, { route: ROUTES.rss, body: older, times: 1 });
    await build(s, tight);
    expect(html(site.ctx, a!.slug)).toContain('Change A.');
    expect(html(site.ctx, b!.slug)).toContain('Change B.');
  });
});

describe('an article is removed only on evidence as new as the list', () => {
  it('a sitemap that answers a valid but empty urlset removes nothing and says so', async () => {
    const s = await sim({ variants: { listMax: 6 } });
    const site = setup(s);
    for (let i = 0; i < 3 && site.ctx.entries.size < 12; i++) await build(s, site);
    expect(site.ctx.entries.size).toBe(12);
    await addFault(s, {
      route: ROUTES.sitemap,
      body: '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
    });
    const { lines } = await build(s, site);
    expect(site.ctx.entries.size).toBe(12);
    expect(lines.filter((l) => l.startsWith('warn ') && /sitemap/.test(l) && /remov/.test(l))).toHaveLength(1);
  });

  it('a sitemap copy older than the list (a CDN edge) does not remove an article just pushed off the list', async () => {
    const s = await sim({ variants: { listMax: 6 } });
    const site = setup(s);
    const stale = await publicFeed(s, 'sitemap.xml');
    const fresh = await publish(s, { site: 12, title: 'Just published', language: 'en' });
    for (let i = 0; i < 3 && site.ctx.entries.size < 13; i++) await build(s, site);
    expect(site.ctx.entries.has(fresh.slug)).toBe(true);
    // Six more push it off the capped list; the CDN still serves the copy from before it was published.
    for (let i = 0; i < 6; i++) await publish(s, { site: 12, title: `Later ${i}`, language: 'en' });
    await addFault(s, { route: ROUTES.sitemap, body: stale });
    await build(s, site);
    expect(site.ctx.entries.has(fresh.slug)).toBe(true);
  });

  it('a stored article the list left out, kept for want of a sitemap, leaves once its detail answers 404 twice, an hour apart, or another status', async () => {
    const s = await sim({ variants: { listMax: 6 } });
    const site = setup(s);
    for (let i = 0; i < 3 && site.ctx.entries.size < 12; i++) await build(s, site);
    expect(site.ctx.entries.size).toBe(12);
    const listed = new Set((await listAll(s)).map((a) => a.slug));
    const [gone, drafted, ...kept] = [...site.ctx.entries.keys()].filter((slug) => !listed.has(slug));
    await unpublish(s, 12, gone!);
    await patchArticle(s, 12, drafted!, { status: 'draft' });
    await addFault(s, {
      route: ROUTES.sitemap,
      body: '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
    });
    // Within the hour of their last check, nothing is asked: the warm build stays at one request.
    const warm = await build(s, site);
    expect(warm.list + warm.details).toBe(1);
    expect(site.ctx.entries.has(gone!)).toBe(true);
    // An hour later their details are asked (the revalidation share). The simulator answers a draft's detail 404 (its
    // default `draftDetail`): one 404 may be a passing fault, so both stay; the second, an hour later, removes them.
    fakeDateAhead(2 * 3_600_000);
    const later = await build(s, site);
    expect(later.detailOf(gone!) + later.detailOf(drafted!)).toBe(2);
    expect(site.ctx.entries.has(gone!) && site.ctx.entries.has(drafted!)).toBe(true);
    // Nothing said they changed: not pending (a confirmation is not a change waiting for its detail).
    expect(later.lines.find((l) => / articles?: /.test(l))).toMatch(/ 0 pending;/);
    const soon = await build(s, site);
    expect(soon.list + soon.details).toBe(1);
    fakeDateAhead(4 * 3_600_000);
    const last = await build(s, site);
    expect(last.detailOf(gone!) + last.detailOf(drafted!)).toBe(2);
    expect(site.ctx.entries.has(gone!) || site.ctx.entries.has(drafted!)).toBe(false);
    expect(last.lines.find((l) => l.includes('Removed 2 article(s)'))).toMatch(/404 twice/);
    expect(kept.every((slug) => site.ctx.entries.has(slug))).toBe(true);
  });
});

describe('requests', () => {
  it('a listed article whose detail answers 404 is asked again with a back-off, not in every build', async () => {
    const s = await sim();
    const real = await listAll(s);
    const ghost = { ...real[0]!, slug: 'ghost-article', title: 'Ghost' };
    await addFault(s, { route: ROUTES.list, json: { results: [ghost, ...real] } });
    const site = setup(s);
    const first = await build(s, site);
    expect(first.detailOf('ghost-article')).toBe(1);
    const second = await build(s, site);
    expect(second.detailOf('ghost-article')).toBe(0);
    expect(second.list + second.details).toBe(1);
    expect(site.ctx.entries.has('ghost-article')).toBe(false);
  });

  it('a new slug whose detail answers another language, taken from its feed copy at a later retry, waits the grown back-off', async () => {
    // The retry that found the other language again is the second: the next waits two hours, not one (the count
    // of retries was started again when the feed copy was taken in the same build).
    const s = await sim({ articles: 0, variants: { sharedSlugs: true } });
    await publishModelArticle(s.url, 'both', 'en');
    await publishModelArticle(s.url, 'own', 'fr');
    const site = setup(s, { language: 'fr', budget: { maxRequests: 2, reserve: 0 } });
    expect((await build(s, site)).detailOf('own')).toBe(1);
    // "own" edited and "both" published in fr: the one detail call goes to the new slug and finds en; nothing
    // shows the feed whole ("own" is held at the body the feed no longer shows), so no copy is taken.
    await admin(s.url, 'PATCH', 'articles/12/own?language=fr', { content: '<p>mark-fr-own-v2-end</p>' });
    await publishModelArticle(s.url, 'both', 'fr');
    expect((await build(s, site)).detailOf('both')).toBe(1);
    expect(site.ctx.entries.has('both')).toBe(false);
    // An hour later, with two detail calls: "own" shows the feed whole, "both" is retried, finds en again, and
    // lives on its feed copy.
    fakeDateAhead(61 * 60_000);
    const site3 = { ...setup(s, { language: 'fr', budget: { maxRequests: 3, reserve: 0 } }), ctx: site.ctx };
    const third = await build(s, site3);
    expect([third.detailOf('own'), third.detailOf('both')]).toEqual([1, 1]);
    expect(html(site.ctx, 'both')).toContain('mark-fr-both-v1-end');
    // Its second retry is due two hours after the first: not an hour and a bit later, then.
    fakeDateAhead(2 * 61 * 60_000);
    expect((await build(s, site3)).detailOf('both')).toBe(0);
    fakeDateAhead(3 * 61 * 60_000 + 60_000);
    expect((await build(s, site3)).detailOf('both')).toBe(1);
  });

  it("the reset header's unexpected form is said once, not once per loader of the build", async () => {
    // Found by a new user's trial (three language loaders): the same line about the service, three times a build.
    const s = await sim({ variants: { rateLimitReset: 'epoch-ms' } });
    const lines: string[] = [];
    for (const language of ['en', 'fr', 'de']) lines.push(...(await build(s, setup(s, { language }))).lines);
    expect(lines.filter((l) => l.includes('X-RateLimit-Reset'))).toHaveLength(1);
  });

  it('`limit` is honoured when the service answers more than asked', async () => {
    const s = await sim();
    const real = await listAll(s);
    await addFault(s, { route: ROUTES.list, json: { results: real } });
    const site = setup(s, { limit: 5 });
    const first = await build(s, site);
    expect([...site.ctx.entries.keys()]).toEqual(real.slice(0, 5).map((a) => a.slug));
    expect(first.list + first.details).toBe(6);
  });
});

describe('a language loader loads every article of its language', () => {
  it('a list cut short without paging: the sitemap shows the rest, loaded over builds within the budget', async () => {
    const s = await sim({ articles: 40, variants: { listMax: 5 } });
    // The truth: the same seed without the cap.
    const whole = await sim({ articles: 40 });
    const english = (await listAll(whole, '?language=en')).map((a) => a.slug);
    expect(english.length).toBe(10);
    const site = setup(s, { language: 'en' });
    let lines: string[] = [];
    for (let i = 0; i < 6; i++) lines = (await build(s, site)).lines;
    expect([...site.ctx.entries.keys()].sort()).toEqual(english.sort());
    expect([...site.ctx.entries.values()].every((e) => e.data.language === 'en')).toBe(true);
    expect(lines.join('\n')).toMatch(/10 articles: 0 new/);
  });
});
