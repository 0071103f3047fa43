/**
 * `watch --invalidate` with slugs of realistic length in the scripts the service writes (issue 37, finding 4):
 * percent-encoded, a 46-character Russian slug made a 259-character tag, the endpoint refused it (400) and
 * every run built again, failed (exit 13) and kept its state, for ever, purging nothing. Each article's tag now
 * fits every host's per-tag limit (a digest of a long slug), the endpoint takes every tag the pages carry, and
 * an endpoint that still refuses (an older one) gets the site's tag instead of the same refusal for ever.
 * The endpoint is the real handler (src/integration/invalidate/invalidate-handler.ts) behind node:http on loopback.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handleInvalidate } from '../../src/integration/invalidate/invalidate-handler.js';
import { cacheTags, MAX_TAG_LENGTH } from '../../src/loader/process/cache-tags.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, runCli } from '../cli/run-cli.js';

const TOKEN = 'watch-long-slugs-token-0123456789';

/** Slugs as a service writes them from titles, in several scripts (lowercase, hyphenated, 30 to 60 characters). */
export const NON_LATIN_SLUGS = {
  cyrillic: 'как-выбрать-правильный-тариф-для-небольшого-блога', // the report's 46+ characters
  greek: 'πώς-να-επιλέξετε-το-σωστό-πρόγραμμα-για-το-ιστολόγιο',
  arabic: 'كيف-تختار-الخطة-المناسبة-لمدونتك-الصغيرة-في-عام',
  cjk: '如何为您的小型博客选择合适的定价方案以及常见问题解答',
  devanagari: 'अपने-छोटे-ब्लॉग-के-लिए-सही-योजना-कैसे-चुनें',
  hebrew: 'איך-לבחור-את-התוכנית-המתאימה-לבלוג-הקטן-שלכם',
  thai: 'วิธีเลือกแผนที่เหมาะสมสำหรับบล็อกขนาดเล็กของคุณ',
  emoji: '🚀-launch-day-🎉-what-we-shipped-✨-and-what-comes-next-🔥-for-everyone',
} as const;

describe('watch --invalidate: long non-Latin slugs', () => {
  let sim: Simulator;
  let endpoint: Server;
  let url: string;
  let dir: string;
  /** Tags of at most this many characters are accepted: an older endpoint's stricter rule, 0 for the real one. */
  let olderLimit = 0;
  let received: string[][] = [];
  const watch = (extra: string[]) =>
    runCli(['watch', '--site', '12', '--base-url', sim.url, '--state', join(dir, 'state.json'), '--once', ...extra], {
      env: { PUBLISHER_INVALIDATE_TOKEN: TOKEN },
    });

  beforeAll(async () => {
    sim = await startSimulator({ articles: 3 });
    endpoint = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        received.push((JSON.parse(body || '{}') as { tags?: string[] }).tags ?? []);
        const request = new Request(`http://127.0.0.1${req.url}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body,
        });
        const tooLong = olderLimit > 0 && received.at(-1)!.some((tag) => tag.length > olderLimit);
        const answer = tooLong
          ? Promise.resolve(new Response('{"error":"`tags.0`: too long"}', { status: 400 }))
          : handleInvalidate({ request }, { token: TOKEN, invalidateLocally: () => undefined });
        void answer.then(async (response) => {
          res.writeHead(response.status, { 'content-type': 'application/json' });
          res.end(await response.text());
        });
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/_publisher/invalidate`;
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'watch-long-slugs-'));
    received = [];
    olderLimit = 0;
    await admin(sim.url, 'POST', 'reset');
  });
  afterAll(async () => {
    endpoint?.closeAllConnections();
    await new Promise((resolve) => endpoint?.close(resolve));
    await sim?.close();
  });

  it('every script: one short ASCII tag per article, accepted by the endpoint, state recorded', async () => {
    expect((await watch(['--invalidate', url])).code).toBe(3);
    for (const [script, slug] of Object.entries(NON_LATIN_SLUGS))
      await admin(sim.url, 'POST', 'articles', { site: 12, title: `A ${script} article`, slug });

    const run = await watch(['--run', 'true', '--invalidate', url]);
    expect(run.stderr).not.toMatch(/answered 400/);
    expect(run.code).toBe(0);
    expect(received).toHaveLength(1);
    const tags = received[0]!;
    for (const slug of Object.values(NON_LATIN_SLUGS)) expect(tags).toContain(cacheTags.article(12, slug));
    for (const tag of tags) {
      expect(tag.length).toBeLessThanOrEqual(MAX_TAG_LENGTH);
      expect(tag).toMatch(/^[\x21-\x7e]+$/); // visible ASCII: what CloudFront and Cloudflare take
      expect(tag).not.toContain(',');
    }
    // Recorded: the next run has nothing to do (before, it built and failed again on every poll).
    expect((await watch(['--run', 'true', '--invalidate', url])).code).toBe(3);
    await rm(dir, { recursive: true, force: true });
  });

  it('an endpoint that refuses the tags (400) gets the site tag instead: the change is purged and recorded, once', async () => {
    expect((await watch(['--invalidate', url])).code).toBe(3);
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Long', slug: NON_LATIN_SLUGS.cyrillic });
    olderLimit = 20; // refuses every article tag; takes `publisher:site-12`
    const run = await watch(['--run', 'true', '--invalidate', url]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /refused the article tags \(400\).*invalidated the site's tag publisher:site-12 instead/,
    );
    expect(received.at(-1)).toEqual(['publisher:site-12']);
    expect(received).toHaveLength(2);
    expect((await watch(['--run', 'true', '--invalidate', url])).code).toBe(3);
    await rm(dir, { recursive: true, force: true });
  });
});
