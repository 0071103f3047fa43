/**
 * The pinned data of `keywordsLoader` and `digestLoader`: one spelling (camelCase) for the fields the loader
 * names, none of the service's snake_case names beside them, and every other field of the service kept as
 * sent. Real loads against the simulator over HTTP, the records widened with fields the API may add.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { digestLoader, keywordsLoader } from '../../src/loader/index.js';
import { admin } from './loader-harness.js';
import { fakeContext } from './loader-context.js';

let sim: Simulator;
const conn = () => ({ siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro });

beforeAll(async () => {
  sim = await startSimulator({ articles: 12, rateLimitOverride: 100_000 });
});
afterAll(async () => {
  await sim?.close();
});
beforeEach(async () => {
  await admin(sim.url, 'POST', 'reset');
  await admin(sim.url, 'DELETE', 'faults');
});

describe('keywordsLoader: data shape', () => {
  it('camelCase for the named fields, the service’s further fields kept as sent', async () => {
    await admin(sim.url, 'POST', 'faults', {
      route: 'GET /api/v1/sites/:id/keywords/',
      drift: { add: { search_engine: 'google', serp_features: ['video'] } },
    });
    const loader = keywordsLoader(conn());
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    expect(ctx.entries.size).toBe(8);
    for (const { id, data } of ctx.entries.values()) {
      expect(Object.keys(data).sort()).toEqual(
        [
          'keyword',
          'position',
          'previousPosition',
          'search_engine',
          'serp_features',
          'updatedAt',
          'url',
          'volume',
        ].sort(),
      );
      expect(id).toBe(data.keyword);
      expect(data).toMatchObject({ search_engine: 'google', serp_features: ['video'] });
      expect(typeof data.position).toBe('number');
      expect(data.previousPosition === null || typeof data.previousPosition === 'number').toBe(true);
      expect(data.updatedAt).toBeInstanceOf(Date);
      expect(data.url).toMatch(/^https?:\/\//);
    }
  });

  it('a field the service did not send is null, under the same name', async () => {
    await admin(sim.url, 'POST', 'faults', {
      route: 'GET /api/v1/sites/:id/keywords/',
      drift: { omit: ['previous_position', 'volume', 'updated_at'] },
    });
    const loader = keywordsLoader(conn());
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    const { data } = [...ctx.entries.values()][0]!;
    expect(data).toMatchObject({ previousPosition: null, volume: null, updatedAt: null });
    expect(Object.keys(data)).not.toContain('previous_position');
  });
});

describe('digestLoader: data shape', () => {
  it('camelCase for the named fields, the service’s further fields and the items kept as sent', async () => {
    await admin(sim.url, 'POST', 'faults', {
      route: 'GET /api/v1/sites/:id/digest/weekly/',
      drift: { add: { top_pages: [{ url: '/a/', page_views: 3 }] } },
    });
    const loader = digestLoader(conn());
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    expect([...ctx.entries.keys()]).toEqual(['latest']);
    const { data } = ctx.entries.get('latest')!;
    expect(Object.keys(data).sort()).toEqual(
      ['alerts', 'averageAuditScore', 'positionMovements', 'publications', 'site', 'top_pages', 'week'].sort(),
    );
    expect(data.week).toMatch(/^\d{4}-W\d{2}$/);
    expect(data.site).toEqual({ id: 12, domain: expect.any(String) });
    expect(data.top_pages).toEqual([{ url: '/a/', page_views: 3 }]);
    expect(typeof data.averageAuditScore === 'number' || data.averageAuditScore === null).toBe(true);
    const publications = data.publications as Array<Record<string, unknown>>;
    expect(publications.length).toBeGreaterThan(0);
    expect(Object.keys(publications[0]!).sort()).toEqual(['published_at', 'slug', 'title', 'url']);
    for (const movement of data.positionMovements as Array<Record<string, unknown>>)
      expect(Object.keys(movement).sort()).toEqual(['change', 'from', 'keyword', 'to', 'url']);
  });

  it('a digest without its named fields still has them: null and empty lists', async () => {
    await admin(sim.url, 'POST', 'faults', {
      route: 'GET /api/v1/sites/:id/digest/weekly/',
      drift: { omit: ['average_audit_score', 'position_movements', 'alerts'] },
    });
    const loader = digestLoader(conn());
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    expect(ctx.entries.get('latest')!.data).toMatchObject({
      averageAuditScore: null,
      positionMovements: [],
      alerts: [],
    });
  });
});
