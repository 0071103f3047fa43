// Where the playground's content comes from: the environment rules of `npm run demo` (no browser needed).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountFromEnv, DEMO_ARTICLES, startDemoSimulator } from '../../playground/scripts/environment.mjs';
import { playgroundSettings } from '../../playground/settings.mjs';

describe('playground environment', () => {
  it('no PUBLISHER_API_KEY: no account, the demo uses the simulator', () => {
    expect(accountFromEnv({ PUBLISHER_BASE_URL: 'https://x.example.com', PUBLISHER_SITE_ID: '12' })).toBeUndefined();
  });

  it('a key without the base URL or site id is refused, naming both and never the key', () => {
    const key = 'btb_leakcheck_playground';
    expect(() => accountFromEnv({ PUBLISHER_API_KEY: key })).toThrow(
      /PUBLISHER_API_KEY is set but PUBLISHER_BASE_URL and PUBLISHER_SITE_ID are not/,
    );
    try {
      accountFromEnv({ PUBLISHER_API_KEY: key, PUBLISHER_SITE_ID: '12' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/PUBLISHER_BASE_URL is not/);
      expect((error as Error).message).not.toContain(key);
    }
  });

  it('a complete account is used as given', () => {
    const env = { PUBLISHER_API_KEY: 'btb_x', PUBLISHER_BASE_URL: 'https://api.example.com', PUBLISHER_SITE_ID: '7' };
    expect(accountFromEnv(env)).toEqual(env);
  });

  it('playgroundSettings: site id, budget and blog origin from the environment', () => {
    expect(playgroundSettings({ PUBLISHER_SITE_ID: '21', PLAYGROUND_MAX_REQUESTS: '350' })).toEqual({
      siteId: 21,
      baseUrl: undefined,
      site: 'http://localhost:4321',
      budget: { maxRequests: 350 },
      images: undefined,
    });
    expect(playgroundSettings({ PUBLISHER_SITE_ID: '21', PLAYGROUND_MAX_IMAGE_DOWNLOADS: '3000' }).images).toEqual({
      maxDownloads: 3000,
    });
    expect(
      playgroundSettings({ PUBLISHER_SITE_ID: '21', PLAYGROUND_SITE: 'https://blog.example.com' }).budget,
    ).toBeUndefined();
    expect(() => playgroundSettings({ PUBLISHER_SITE_ID: 'abc' })).toThrow(
      /PUBLISHER_SITE_ID must be a positive integer \(got "abc"\)/,
    );
    expect(() => playgroundSettings({})).toThrow(/npm run demo/);
  });

  it('the demo simulator: an Agence site with every article and budget enough for one cold build', async () => {
    const { simulator, siteId, env } = await startDemoSimulator();
    try {
      expect(simulator.sites.agence).toContain(siteId);
      expect(env.PUBLISHER_BASE_URL).toBe(simulator.url);
      const response = await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/`, {
        headers: { authorization: `Bearer ${env.PUBLISHER_API_KEY}` },
      });
      const { results } = (await response.json()) as { results: unknown[] };
      expect(results).toHaveLength(DEMO_ARTICLES);
      // Every image of the site in the first build (test/e2e/playground-demo.test.ts builds it).
      expect(Number(env.PLAYGROUND_MAX_IMAGE_DOWNLOADS)).toBeGreaterThanOrEqual(DEMO_ARTICLES * 4);
      const limit = Number(response.headers.get('x-ratelimit-limit'));
      // One list call, every detail, keywords and digest must fit in the hour and in the loader's budget.
      expect(Number(env.PLAYGROUND_MAX_REQUESTS)).toBeGreaterThanOrEqual(DEMO_ARTICLES + 3);
      expect(limit).toBeGreaterThanOrEqual(DEMO_ARTICLES + 3);
    } finally {
      await simulator.close();
    }
  });

  it('the demo simulator keeps its port between runs (stateDir), and takes a free one when it is taken', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'acp-demo-state-'));
    const lines: string[] = [];
    try {
      const first = await startDemoSimulator({ stateDir, articles: 2, log: (line) => lines.push(line) });
      const port = new URL(first.simulator.url).port;
      await first.simulator.close();
      expect(JSON.parse(readFileSync(join(stateDir, 'demo-simulator.json'), 'utf8'))).toEqual({ port: Number(port) });

      const second = await startDemoSimulator({ stateDir, articles: 2, log: (line) => lines.push(line) });
      expect(new URL(second.simulator.url).port).toBe(port);
      expect(second.env.PUBLISHER_BASE_URL).toBe(`http://127.0.0.1:${port}`);
      expect(lines).toEqual([]);

      // The remembered port is taken (here by the running simulator): a free port, and a line saying what it costs.
      const third = await startDemoSimulator({ stateDir, articles: 2, log: (line) => lines.push(line) });
      const other = new URL(third.simulator.url).port;
      expect(other).not.toBe(port);
      expect(lines).toEqual([expect.stringContaining(`port ${port} of the previous run is taken`)]);
      expect(JSON.parse(readFileSync(join(stateDir, 'demo-simulator.json'), 'utf8'))).toEqual({ port: Number(other) });
      await second.simulator.close();
      await third.simulator.close();
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('a port file that is not ours (garbage) counts as none', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'acp-demo-state-'));
    try {
      writeFileSync(join(stateDir, 'demo-simulator.json'), '{"port": "80; rm -rf"}');
      const started = await startDemoSimulator({ stateDir, articles: 1, log: () => undefined });
      expect(Number(new URL(started.simulator.url).port)).toBeGreaterThan(0);
      await started.simulator.close();
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
