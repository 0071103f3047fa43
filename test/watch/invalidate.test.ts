/**
 * `watch --invalidate URL`: the changed articles' cache tags POSTed to the blog's invalidation endpoint with the
 * token from the environment; alone or after a build command; recorded only on the endpoint's own answer (a 200 from a page is not one); the token never printed.
 * The endpoint here is a recording server on loopback (the real one: test/astro/route-cache.test.ts).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { resolveWatchOptions } from '../../src/watch/options.js';
import { admin, runCli } from '../cli/run-cli.js';

const TOKEN = 'watch-invalidate-token-abcdef123456';

describe('watch --invalidate', () => {
  let sim: Simulator;
  let endpoint: Server;
  let url: string;
  let dir: string;
  let status = 200;
  let endless = false;
  /** What a 200 carries: the endpoint's own answer, or a page (a wrong URL that takes a POST). */
  let answer: 'endpoint' | 'page' = 'endpoint';
  let received: { headers: IncomingHttpHeaders; body: unknown }[] = [];
  const watch = (extra: string[], env: Record<string, string> = { PUBLISHER_INVALIDATE_TOKEN: TOKEN }) =>
    runCli(['watch', '--site', '12', '--base-url', sim.url, '--state', join(dir, 'state.json'), '--once', ...extra], {
      env,
    });

  beforeAll(async () => {
    sim = await startSimulator({ articles: 5 });
    endpoint = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const sent = JSON.parse(body || 'null') as { tags?: string[] } | null;
        received.push({ headers: req.headers, body: sent });
        res.writeHead(status, status === 302 ? { location: 'http://127.0.0.1:1/' } : {});
        // As src/integration/invalidate/invalidate-handler.ts answers.
        if (!endless && answer === 'endpoint')
          return void res.end(JSON.stringify({ invalidated: sent?.tags ?? [], routeCache: true }));
        if (!endless) return void res.end('<!doctype html><html><body>Blog</body></html>');
        // An answer whose body never ends (1 MiB every 10 ms), until the client goes away.
        const chunk = Buffer.alloc(1024 * 1024, 'x');
        const timer = setInterval(() => res.write(chunk), 10);
        res.on('close', () => clearInterval(timer));
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/_publisher/invalidate`;
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'watch-invalidate-'));
    received = [];
    status = 200;
    endless = false;
    answer = 'endpoint';
    await admin(sim.url, 'POST', 'reset');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  afterAll(async () => {
    endpoint?.closeAllConnections();
    await new Promise((resolve) => endpoint?.close(resolve));
    await sim?.close();
  });

  it('usage: https only (http to this machine), a token of 16+ characters from the environment, never from argv', async () => {
    const insecure = await watch(['--invalidate', 'http://blog.example.com/_publisher/invalidate']);
    expect(insecure.code).toBe(2);
    expect(insecure.stderr).toMatch(/--invalidate must be an https URL/);
    expect(insecure.stderr).toContain('(got http://blog.example.com/…)');
    const missing = await watch(['--invalidate', url], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/environment variable PUBLISHER_INVALIDATE_TOKEN/);
    const short = await watch(['--invalidate', url], { PUBLISHER_INVALIDATE_TOKEN: 'short' });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/shorter than 16 characters/);
    expect(short.stderr).not.toContain('short ');
    const named = await watch(['--invalidate', url, '--invalidate-token-env', 'MY_TOKEN'], { MY_TOKEN: TOKEN });
    expect(named.code).toBe(3); // baseline recorded
    const both = await watch(['--run', 'true', '--hook', url]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--run "CMD" or --hook URL, not both/);
    expect(() =>
      resolveWatchOptions({
        siteId: 12,
        baseUrl: sim.url,
        statePath: join(dir, 'x.json'),
        trigger: { kind: 'invalidate', url: 'http://blog.example.com/x', token: TOKEN },
      }),
    ).toThrow(/plain http only to this machine/);
    expect(received).toEqual([]);
  });

  it('an edit: the article tag and the list, sitemap and feed tags, with the bearer token; after the build command', async () => {
    const [article] = await createClient({ baseUrl: sim.url, apiKey: sim.tokens.pro }).articles(12);
    expect((await watch(['--invalidate', url])).code).toBe(3);
    await admin(sim.url, 'PATCH', `articles/12/${article!.slug}`, { title: 'Edited' });

    // The build fails: nothing is invalidated, nothing recorded (the next run retries the same change).
    const failed = await watch(['--run', 'exit 1', '--invalidate', url]);
    expect(failed.code).toBe(13);
    expect(failed.stderr).toMatch(/command `exit 1`: exit code 1/);
    expect(received).toEqual([]);

    // The endpoint refuses: exit 13, not recorded; the token is never printed.
    status = 403;
    const refused = await watch(['--run', 'true', '--invalidate', url]);
    expect(refused.code).toBe(13);
    expect(refused.stderr).toMatch(/answered 403: the token is not the blog's/);
    expect(refused.stderr + refused.stdout).not.toContain(TOKEN);

    // A redirect is not followed (the token stays with the URL it was meant for) and is not a success.
    status = 302;
    const redirected = await watch(['--invalidate', url]);
    expect(redirected.code).toBe(13);
    expect(redirected.stderr).toMatch(/answered 302, a redirect: not followed .*pass the URL it redirects to/);
    expect(received).toHaveLength(2);

    // A wrong URL that answers 200 to a POST (a page): not the endpoint's answer, so nothing was purged.
    status = 200;
    answer = 'page';
    received = [];
    const page = await watch(['--invalidate', url]);
    expect(page.code).toBe(13);
    expect(page.stderr).toContain(
      `answered 200, but not as the invalidation endpoint does (no {"invalidated": [...]} naming the tags sent): is ${url} the path of publisher({ invalidate: true })`,
    );
    expect(page.stderr + page.stdout).not.toContain(TOKEN);
    expect(received).toHaveLength(1);
    answer = 'endpoint';
    received = [];
    const done = await watch(['--run', 'true', '--invalidate', url, '--json']);
    expect(done.code).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(received[0]!.headers['content-type']).toBe('application/json');
    expect(received[0]!.body).toEqual({
      tags: [
        `publisher:site-12:${article!.slug}`,
        'publisher:site-12/articles',
        'publisher:site-12/sitemap',
        'publisher:site-12/rss',
      ],
    });
    expect(JSON.parse(done.stdout)).toMatchObject({ outcome: 'triggered', exitCode: 0 });
    expect(await readFile(join(dir, 'state.json'), 'utf8')).not.toContain(TOKEN);
    expect((await watch(['--invalidate', url])).code).toBe(3); // recorded: nothing new
  });

  it('the endpoint URL is shown with its path (the token travels in a header), in the trigger and its failures', async () => {
    status = 404;
    const missing = await watch(['--invalidate', url, '--trigger-on-first-run']);
    expect(missing.code).toBe(13);
    expect(missing.stderr).toContain(url);
    expect(missing.stderr).toMatch(/answered 404: is publisher\(\{ invalidate: true \}\) on, and the path right/);
    await rm(dir, { recursive: true, force: true });

    // A deploy hook's URL given by mistake: it answers 200, and its path (the hook's secret) is not shown.
    status = 200;
    answer = 'page';
    dir = await mkdtemp(join(tmpdir(), 'watch-invalidate-'));
    const hook = url.replace('/_publisher/invalidate', '/build_hooks/s3cr3t-hook-id');
    const wrong = await watch(['--invalidate', hook, '--trigger-on-first-run']);
    expect(wrong.code).toBe(13);
    expect(wrong.stderr).toMatch(/not as the invalidation endpoint does/);
    expect(wrong.stderr).toContain(`${new URL(url).origin}/…`);
    expect(wrong.stderr + wrong.stdout).not.toContain('s3cr3t');
  });

  it('--trigger-on-first-run: no change is known, so the whole site is invalidated', async () => {
    const first = await watch(['--invalidate', url, '--trigger-on-first-run']);
    expect(first.code).toBe(0);
    expect(received.map((r) => r.body)).toEqual([{ tags: ['publisher:site-12'] }]);
  });

  it("a 200 whose body never ends: not the endpoint's answer, refused once more than its size was read (not held until the 30 s timeout)", async () => {
    endless = true;
    const started = Date.now();
    const result = await watch(['--invalidate', url, '--trigger-on-first-run']);
    expect(result.code).toBe(13);
    expect(result.stderr).toMatch(/not as the invalidation endpoint does/);
    expect(received).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
