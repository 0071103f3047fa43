/**
 * The client's body size caps (`maxResponseBytes` for JSON, `maxFeedBytes` for the feeds) against the
 * simulator's 'huge' fault: a huge answer is refused with a ResponseFormatError naming the endpoint and the
 * option, not retried, and the download stops at the cap instead of filling memory.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, createClient, ResponseFormatError } from '../../src/client/index.js';
import { CLIENT_DEFAULTS } from '../../src/client/options.js';
import { addFault, hits, ROUTES, timed, useFaultSimulator } from './helpers.js';

const sim = useFaultSimulator({ articles: 5 });

describe('defaults', () => {
  it("20 MiB for JSON and 50 MiB for the feeds; the simulator's 64 MiB answers are refused from their Content-Length", async () => {
    expect(CLIENT_DEFAULTS).toEqual({ maxResponseBytes: 20 * 1024 * 1024, maxFeedBytes: 50 * 1024 * 1024 });
    const client = createClient({ baseUrl: sim().url, apiKey: sim().tokens.pro });
    await addFault(sim(), { route: '*', body: 'huge' });
    const list = await timed(() => client.articles(12));
    expect(list.error).toBeInstanceOf(ResponseFormatError);
    expect((list.error as ResponseFormatError).endpoint).toBe('GET /api/v1/sites/12/articles/');
    expect((list.error as Error).message).toMatch(
      /the body is \d+ bytes \(Content-Length\), over the 20971520-byte cap of `maxResponseBytes`/,
    );
    const feed = await timed(() => client.sitemap(12));
    expect(feed.error).toBeInstanceOf(ResponseFormatError);
    expect((feed.error as Error).message).toContain('over the 52428800-byte cap of `maxFeedBytes`');
    expect(hits(sim().stats(), ROUTES.list)).toBe(1);
    expect(hits(sim().stats(), ROUTES.sitemap)).toBe(1);
  });
});

describe('streaming', () => {
  it('without a Content-Length, the download stops once the cap is passed', async () => {
    let pulled = 0;
    // A fetch that hides Content-Length (as a chunked or compressed answer would) and counts the bytes read.
    const countingFetch: typeof fetch = async (input, init) => {
      const real = await fetch(input, init);
      const headers = new Headers(real.headers);
      headers.delete('content-length');
      const counted = real.body!.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            pulled += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(counted, { status: real.status, statusText: real.statusText, headers });
    };
    const cap = 1024 * 1024;
    const client = createClient({
      baseUrl: sim().url,
      apiKey: sim().tokens.pro,
      fetch: countingFetch,
      maxResponseBytes: cap,
      maxFeedBytes: cap,
    });
    await addFault(sim(), { route: ROUTES.detail, body: 'huge', hugeBytes: 48 * 1024 * 1024 });
    const slug = (await client.articles(12))[0]!.slug;
    pulled = 0;
    const outcome = await timed(() => client.article(12, slug));
    expect(outcome.error).toBeInstanceOf(ResponseFormatError);
    expect((outcome.error as Error).message).toContain(`over ${cap} bytes (download stopped)`);
    expect(pulled).toBeGreaterThan(cap);
    // A few socket chunks past the cap at most, nowhere near the 48 MiB sent.
    expect(pulled).toBeLessThan(cap + 4 * 1024 * 1024);

    const rss = await timed(() =>
      createClient({ baseUrl: sim().url, fetch: countingFetch, maxFeedBytes: cap }).rss(12),
    );
    expect(rss.error).toBeUndefined(); // the real feed is well under the cap
  });
});

describe('option checks', () => {
  it('wrong types, negative, tiny or huge caps are refused before any request', () => {
    for (const [option, value] of [
      ['maxResponseBytes', -1],
      ['maxResponseBytes', '20MB'],
      ['maxResponseBytes', 10],
      ['maxFeedBytes', 1e12],
      ['maxFeedBytes', 1.5e6 + 0.5],
    ] as const) {
      let error: unknown;
      try {
        createClient({ baseUrl: sim().url, [option]: value } as never);
      } catch (e) {
        error = e;
      }
      expect(error, `${option}: ${value}`).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).option).toBe(option);
      expect((error as Error).message).toContain(
        `\`${option}\` must be a whole number of bytes from 1024 to 2147483647`,
      );
    }
    expect(sim().stats().authenticated + sim().stats().public).toBe(0);
  });
});
