/**
 * Issue 15, items 9 and 13: what a (compromised or careless) service puts in a successful detail body. Before:
 * an API key echoed in the body was stored in the entry's data, and `url` / `featuredImage` were stored as
 * sent, so a `javascript:` value became script in any page that links it. Now (src/loader/entries/entry-safety.ts,
 * called where articlesLoader stores an entry, where the data loaders store theirs, and in the live loader)
 * key- and token-shaped strings are redacted and those two fields are kept only when they are http(s).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as devalue from 'devalue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHttpUrl, safeEntryData } from '../../src/loader/entries/entry-safety.js';
import { liveArticlesLoader } from '../../src/loader/live/live-loader.js';
import { buildFixture, fixtureRoot, readTree, tempDirs } from '../astro/loader-harness.js';
import { addFault, clearFaults, ROUTES, useFaultSimulator } from '../faults/helpers.js';

const TOKEN = 'btb_echoedkey_9c41d7';
const OTHER = 'btb_someone_elses_token_77';
const sim = useFaultSimulator({ articles: 4, extraProTokens: [TOKEN] });

/** Every detail body gains an echoed key, a foreign token and hostile URLs. */
const hostileDetail = () =>
  addFault(sim(), {
    route: ROUTES.detail,
    drift: {
      add: {
        url: 'javascript:alert(document.domain)',
        featured_image: ' JaVaScRiPt:alert(1)',
        debug: { auth: `Bearer ${TOKEN}`, other: OTHER },
        content: `<p>Your key is ${TOKEN}.</p>`,
      },
    },
  });

describe('entry-safety (pure)', () => {
  it('keeps http(s) URLs, drops every other scheme', () => {
    expect(['https://a.example/x', 'http://a.example/'].every(isHttpUrl)).toBe(true);
    expect(
      [
        'javascript:alert(1)',
        ' javascript:alert(1)',
        'data:text/html,x',
        'vbscript:x',
        '//evil.example/',
        '/relative',
        '',
      ].some(isHttpUrl),
    ).toBe(false);
    expect(
      safeEntryData({ url: 'javascript:x', featuredImage: 'https://img.example/a.png', note: `k=${TOKEN}` }, TOKEN),
    ).toEqual({ featuredImage: 'https://img.example/a.png', note: 'k=btb_[redacted]' });
    expect(safeEntryData({ url: 'javascript:x' }, undefined, 'null')).toEqual({ url: null });
  });
});

describe('liveArticlesLoader', () => {
  it('serves no echoed key and no javascript: url or featuredImage', async () => {
    await hostileDetail();
    const live = liveArticlesLoader({ siteId: 12, baseUrl: sim().url, apiKey: TOKEN });
    const list = (await live.loadCollection({} as never)) as { entries: Array<{ id: string }> };
    const entry = (await live.loadEntry({ filter: { id: list.entries[0]!.id } } as never)) as {
      data: Record<string, unknown>;
      rendered: { html: string };
    };
    expect(entry.data.title).toBeTypeOf('string');
    expect(entry.data.url).toBeUndefined();
    expect(entry.data.featuredImage).toBeUndefined();
    const text = JSON.stringify(entry);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(OTHER);
    expect(text.toLowerCase()).not.toContain('javascript:');
    expect(entry.rendered.html).toContain('btb_[redacted]');
  });
});

describe('articlesLoader (a real build)', () => {
  const root = fixtureRoot('security-site');
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  beforeAll(async () => {
    dirs = await tempDirs('security-entry-safety', root);
  });
  afterAll(async () => {
    await clearFaults(sim());
    await new Promise((resolve) => setTimeout(resolve, 500));
    await dirs?.cleanup();
  });

  it('stores and publishes no echoed key and no javascript: url or featuredImage', async () => {
    await hostileDetail();
    const result = await buildFixture({
      root,
      outDir: dirs.outDir,
      cacheDir: dirs.cacheDir,
      env: { PUBLISHER_BASE_URL: sim().url, PUBLISHER_API_KEY: TOKEN, PUBLISHER_SITE_ID: '12', SECURITY_STRICT: '' },
    });
    expect(result.error, result.logs).toBeUndefined();
    const store = await readFile(join(dirs.cacheDir, 'data-store.json'), 'utf8');
    const articles = (devalue.parse(store) as Map<string, Map<string, { data: Record<string, unknown> }>>).get(
      'articles',
    )!;
    expect(articles.size).toBe(4);
    for (const entry of articles.values()) {
      expect(entry.data.url).toBeUndefined();
      expect(entry.data.featuredImage).toBeUndefined();
    }
    for (const text of [store, ...(await readTree(dirs.outDir)).values()]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(OTHER);
      expect(text.toLowerCase()).not.toContain('javascript:alert');
    }
  });
});
