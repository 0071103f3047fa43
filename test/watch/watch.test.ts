/**
 * `content-publisher watch` against the simulator over HTTP, spawned as a user runs it. Intervals are
 * short (200ms) and most cases use --once, so each case is a handful of short processes.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { createClient } from '../../src/client/index.js';
import { admin, runCli, startCli, waitFor } from '../cli/run-cli.js';

const LEAK = 'btb_leakcheck_watch_1';
const EMPTY_FEED = {
  sitemap: '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
  rss: '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title></channel></rss>',
};
let sim: Simulator;
let dir: string;
let hook: { server: Server; url: string; hits: number; failNext: number; body: string };

async function lines(file: string): Promise<number> {
  if (!existsSync(file)) return 0;
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean).length;
}

function watchArgs(extra: string[]): string[] {
  return ['watch', '--site', '12', '--base-url', sim.url, '--state', join(dir, 'state.json'), ...extra];
}

beforeAll(async () => {
  // 60 articles: the RSS feed holds the 50 newest, so the oldest ones are only in the sitemap.
  sim = await startSimulator({ articles: 60 });
  hook = { server: createServer(), url: '', hits: 0, failNext: 0, body: '' };
  hook.server.on('request', (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      hook.body = body;
      hook.hits += 1;
      if (hook.failNext > 0) {
        hook.failNext -= 1;
        res.writeHead(500).end('deploy failed');
      } else res.writeHead(201, { 'content-type': 'application/json' }).end('{"job":"1"}');
    });
  });
  await new Promise<void>((resolve) => hook.server.listen(0, '127.0.0.1', resolve));
  const address = hook.server.address();
  hook.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks/secret-deploy-id`;
});

afterAll(async () => {
  await sim?.close();
  await new Promise((resolve) => hook?.server.close(resolve));
});

beforeEach(async () => {
  await admin(sim.url, 'POST', 'reset');
  dir = await mkdtemp(join(tmpdir(), 'watch-'));
  hook.hits = 0;
  hook.failNext = 0;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('watch --once', () => {
  it('first run records a baseline without triggering (3); an unchanged feed then costs two 304s and no key', async () => {
    const counter = join(dir, 'runs.txt');
    const first = await runCli(watchArgs(['--once', '--run', `echo run >> ${counter}`]), {
      env: { PUBLISHER_API_KEY: LEAK },
    });
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/baseline recorded: 50 feed items, 60 sitemap URLs/);
    expect(await lines(counter)).toBe(0);

    sim.resetStats();
    const second = await runCli(watchArgs(['--once', '--json', '--verbose', '--run', `echo run >> ${counter}`]), {
      env: { PUBLISHER_API_KEY: LEAK },
    });
    expect(second.code).toBe(3);
    expect(JSON.parse(second.stdout)).toEqual({ outcome: 'unchanged', exitCode: 3 });
    const stats = sim.stats();
    expect(stats.routes['GET /api/sites/:id/rss.xml']).toEqual({ 304: 1 });
    expect(stats.routes['GET /api/sites/:id/sitemap.xml']).toEqual({ 304: 1 });
    expect(stats.authenticated).toBe(0);
    expect(stats.requests.every((r) => !r.authorization && r.tokenIn.length === 0)).toBe(true);
    expect(await lines(counter)).toBe(0);
    for (const out of [first.stdout, first.stderr, second.stdout, second.stderr])
      expect(out).not.toContain('btb_leakcheck');
  });

  it('the command gets PUBLISHER_WATCH_CHANGES: the changed articles, one for one new article', async () => {
    const counts = join(dir, 'changes.txt');
    const run = ['--once', '--run', `echo "$PUBLISHER_WATCH_SITE $PUBLISHER_WATCH_CHANGES" >> ${counts}`];
    expect((await runCli(watchArgs(run))).code).toBe(3);
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Counted once' });
    const result = await runCli(watchArgs(run));
    expect(result.code).toBe(0);
    // The feed and the sitemap both show it: two change records, one article.
    expect(result.stderr).toMatch(/2 change\(s\) to 1 article\(s\):/);
    expect((await readFile(counts, 'utf8')).trim()).toBe('12 1');
  });

  it('a build that exits 0 but says it left the change undone (its loader could not list): exit 13, the change kept for the next build', async () => {
    const counter = join(dir, 'runs.txt');
    // What articlesLoader does in a build whose list call failed (src/loader/process/watch-report.ts), then the build's end.
    const report = pathToFileURL(join(process.cwd(), 'dist/loader/process/watch-report.js')).href;
    const degraded = `"${process.execPath}" -e "import('${report}').then((m) => m.reportUndoneToWatch('site 12', 'could not list the articles: 503', 'kept'))" && echo run >> ${counter}`;
    expect((await runCli(watchArgs(['--once', '--run', `echo run >> ${counter}`]))).code).toBe(3);
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Listed later' });

    const kept = await runCli(watchArgs(['--once', '--run', degraded]));
    expect(kept.code).toBe(13);
    expect(kept.stderr).toContain(
      'exit code 0, but the build left the change undone (site 12: could not list the articles: 503)',
    );
    const done = await runCli(watchArgs(['--once', '--run', `echo run >> ${counter}`]));
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(/new article in the feed: Listed later/);
    expect(await lines(counter)).toBe(2);
    expect((await runCli(watchArgs(['--once', '--run', `echo run >> ${counter}`]))).code).toBe(3);
  });

  it('PUBLISHER_SITE_ID stands for --site, as for the loaders; neither is a usage error (2) naming both', async () => {
    const args = ['watch', '--base-url', sim.url, '--state', join(dir, 'state.json'), '--once', '--run', 'true'];
    const fromEnv = await runCli(args, { env: { PUBLISHER_SITE_ID: '12' } });
    expect(fromEnv.code).toBe(3);
    expect(fromEnv.stderr).toMatch(/baseline recorded/);
    const bad = await runCli(args, { env: { PUBLISHER_SITE_ID: 'twelve' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('PUBLISHER_SITE_ID must be a positive integer (got "twelve")');
    const none = await runCli(args, { env: { PUBLISHER_SITE_ID: '' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--site ID (or PUBLISHER_SITE_ID) is required.');
  });

  it('--trigger-on-first-run triggers on the baseline (0)', async () => {
    const counter = join(dir, 'runs.txt');
    const result = await runCli(watchArgs(['--once', '--trigger-on-first-run', '--run', `echo run >> ${counter}`]));
    expect(result.code).toBe(0);
    expect(await lines(counter)).toBe(1);
  });

  it('--trigger-on-first-run that fails (13): the next run triggers, with the flag or without it', async () => {
    // Found by a trial: no state was written, so the next run without the flag recorded the baseline and the
    // first build never came.
    const counter = join(dir, 'first-runs.txt');
    const failing = await runCli(watchArgs(['--once', '--trigger-on-first-run', '--run', 'exit 1']));
    expect(failing.code).toBe(13);
    expect(failing.stderr).toContain('retried on the next run');
    const next = await runCli(watchArgs(['--once', '--run', `echo run >> ${counter}`]));
    expect(next.code).toBe(0);
    expect(await lines(counter)).toBe(1);
    expect((await runCli(watchArgs(['--once', '--run', `echo run >> ${counter}`]))).code).toBe(3);
  });

  it('a failing hook exits 13 and keeps the change; the next run delivers it once; a restart does not trigger again', async () => {
    expect((await runCli(watchArgs(['--once', '--hook', hook.url]))).code).toBe(3);
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Fresh from the service' });

    hook.failNext = 1;
    const failed = await runCli(watchArgs(['--once', '--hook', hook.url]));
    expect(failed.code).toBe(13);
    expect(failed.stderr).toMatch(/trigger failed: deploy hook http:\/\/127\.0\.0\.1:\d+\/… failed: .*500/);
    // The hook URL's secret path never reaches the logs.
    expect(failed.stderr).not.toContain('secret-deploy-id');

    const delivered = await runCli(watchArgs(['--once', '--hook', hook.url]));
    expect(delivered.code).toBe(0);
    expect(delivered.stderr).toMatch(/new article in the feed: Fresh from the service/);
    // The feed and the sitemap both show the one new article: two changes, one article.
    expect(delivered.stderr).toMatch(/2 change\(s\) to 1 article\(s\):/);
    expect(hook.hits).toBe(2);
    // The hook's payload counts articles too: a deploy log reading "2 changes" for one article misleads.
    expect(JSON.parse(hook.body)).toEqual({ source: 'content-publisher watch', site: 12, changes: 1 });

    const again = await runCli(watchArgs(['--once', '--hook', hook.url]));
    expect(again.code).toBe(3);
    expect(hook.hits).toBe(2);
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(state.lastTrigger.changes).toBeGreaterThanOrEqual(1);
  });

  it('an update of an article older than the feed (sitemap lastmod) triggers', async () => {
    const client = createClient({ baseUrl: sim.url, apiKey: sim.tokens.pro });
    const oldest = (await client.articles(12)).at(-1)!;
    const rss = await client.rss(12);
    expect(rss.notModified ? '' : rss.body).not.toContain(`/blog/${oldest.slug}/`);

    const counter = join(dir, 'runs.txt');
    expect((await runCli(watchArgs(['--once', '--run', `echo run >> ${counter}`]))).code).toBe(3);
    await admin(sim.url, 'PATCH', `articles/12/${oldest.slug}`, { title: 'Rewritten old article' });
    const result = await runCli(watchArgs(['--once', '--json', '--run', `echo run >> ${counter}`]));
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.outcome).toBe('triggered');
    expect(doc.changes).toEqual([
      expect.objectContaining({ kind: 'sitemap-updated', loc: `https://pro-blog.example.com/blog/${oldest.slug}/` }),
    ]);
    expect(await lines(counter)).toBe(1);
  });

  it('upstream errors map to exit codes: unknown site 7, a server error 10, an HTML page instead of XML 12', async () => {
    const unknown = await runCli([
      'watch',
      '--site',
      '99',
      '--base-url',
      sim.url,
      '--state',
      join(dir, 's99.json'),
      '--once',
      '--run',
      'true',
    ]);
    expect(unknown.code).toBe(7);
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', body: 'html' });
    const html = await runCli(watchArgs(['--once', '--run', 'true']));
    expect(html.code).toBe(12);
    expect(html.stderr).toMatch(/rss\.xml/);
    await admin(sim.url, 'DELETE', 'faults');
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/sitemap.xml', status: 503 });
    expect((await runCli(watchArgs(['--once', '--run', 'true']))).code).toBe(10);
    const usage = await runCli(['watch', '--site', '12', '--base-url', sim.url, '--once']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/watch needs --run "CMD", --hook URL .*, or --invalidate URL/);
  });

  it('more upstream answers: 429 exits 8, 502 exits 9, a 304 to a request without validators 12, an unreadable state file 2', async () => {
    const once = () => runCli(watchArgs(['--once', '--run', 'true']));
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', status: 429, retryAfter: 1 });
    expect((await once()).code).toBe(8);
    await admin(sim.url, 'DELETE', 'faults');
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/sitemap.xml', status: 502 });
    expect((await once()).code).toBe(9);
    await admin(sim.url, 'DELETE', 'faults');
    // No state yet, so the request is unconditional: a 304 is a wrong answer (a misbehaving cache), not a bug.
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', status: 304 });
    const notModified = await once();
    expect(notModified.code, notModified.stderr).toBe(12);
    expect(notModified.stderr).toMatch(
      /^content-publisher: unexpected response from the service: .*rss\.xml: 304 Not Modified to a request without If-None-Match/,
    );
    await admin(sim.url, 'DELETE', 'faults');
    await writeFile(join(dir, 'state.json'), '{not json');
    const state = await once();
    expect(state.code).toBe(2);
    expect(state.stderr).toContain('state.json');
  });
});

describe('watch (continuous)', () => {
  it('a burst of publishes triggers exactly once; a failing command is retried on the next poll; SIGTERM lets the trigger finish', async () => {
    const counter = join(dir, 'runs.txt');
    const attempts = join(dir, 'attempts.txt');
    // Fails on its first attempt, then succeeds after a build that lasts until the test releases it (a file
    // that exists from the start, until the third build): the SIGTERM below lands mid-build on any machine.
    const hold = join(dir, 'hold-third-build');
    const command = `echo a >> ${attempts}; if [ $(wc -l < ${attempts}) -lt 2 ]; then exit 1; fi; while [ $(wc -l < ${attempts}) -ge 3 ] && [ -e ${hold} ]; do sleep 0.02; done; echo run >> ${counter}`;
    await writeFile(hold, '');
    const watcher = startCli(watchArgs(['--interval', '200ms', '--debounce', '300ms', '--json', '--run', command]));
    const events = () =>
      watcher.output.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { event: string; changes?: unknown });
    await waitFor(() => events().some((e) => e.event === 'baseline'), 10_000, 'baseline');
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Burst one' });
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Burst two' });
    await waitFor(async () => (await lines(counter)) === 1, 15_000, 'one successful trigger');
    // A few more polls: nothing new, nothing triggered again.
    const quietAfterTrigger = () =>
      events()
        .slice(events().findIndex((e) => e.event === 'triggered'))
        .filter((e) => e.event === 'unchanged').length;
    await waitFor(() => quietAfterTrigger() >= 3, 10_000, 'quiet polls after the trigger');
    expect(await lines(counter)).toBe(1);
    expect(await lines(attempts)).toBe(2);
    const changes = events().find((e) => e.event === 'changes') as { changes: Array<{ kind: string }> };
    expect(changes.changes.filter((c) => c.kind === 'new-item')).toHaveLength(2);

    // A third publish, then SIGTERM while its build runs: the build completes and is recorded.
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'During shutdown' });
    await waitFor(async () => (await lines(attempts)) === 3, 10_000, 'third trigger started');
    watcher.kill('SIGTERM');
    // The signal reached the watcher mid-build (the build cannot end before the hold is released), and the
    // watcher says it waits for it. One that stopped its build, or exited without waiting, leaves the counter
    // at 1 and the state unrecorded.
    await waitFor(() => /stopping once the running/.test(watcher.output.stderr), 10_000, 'the watcher to say it waits');
    expect(await lines(counter)).toBe(1);
    await rm(hold);
    const result = await watcher.result;
    expect(result.code).toBe(0);
    expect(await lines(counter)).toBe(2);
    expect(events().at(-1)?.event).toBe('stopped');
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(state.rss.items[0].title).toBe('During shutdown');
  });

  it('Ctrl-C in the terminal (SIGINT to the whole process group) lets a running build finish and records it', async () => {
    const counter = join(dir, 'runs.txt');
    const started = join(dir, 'started.txt');
    const command = `echo s >> ${started}; sleep 0.5; echo run >> ${counter}`;
    const watcher = startCli(watchArgs(['--interval', '200ms', '--debounce', '0', '--json', '--run', command]), {
      processGroup: true,
    });
    const events = () =>
      watcher.output.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { event: string });
    await waitFor(() => events().some((e) => e.event === 'baseline'), 10_000, 'baseline');
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'During Ctrl-C' });
    await waitFor(async () => (await lines(started)) === 1, 10_000, 'the build started');
    // What the terminal does on Ctrl-C: SIGINT to every process of the foreground group.
    process.kill(-(watcher.pid ?? 0), 'SIGINT');
    const result = await watcher.result;
    expect(result.code, result.stderr).toBe(0);
    expect(await lines(counter)).toBe(1);
    expect(
      events()
        .map((e) => e.event)
        .slice(-2),
    ).toEqual(['triggered', 'stopped']);
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(state.rss.items[0].title).toBe('During Ctrl-C');
  });

  it('Ctrl-C during a build says that it waits and how to stop now; a second Ctrl-C stops the build too and records nothing', async () => {
    const counter = join(dir, 'runs.txt');
    const started = join(dir, 'started.txt');
    // A long build: its last step never comes if the second Ctrl-C stops it.
    const command = `echo $$ >> ${started}; sleep 3; echo run >> ${counter}`;
    const watcher = startCli(watchArgs(['--interval', '200ms', '--debounce', '0', '--run', command]), {
      processGroup: true,
    });
    await waitFor(() => watcher.output.stderr.includes('baseline recorded'), 10_000, 'baseline');
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'During two Ctrl-C' });
    await waitFor(async () => (await lines(started)) === 1, 10_000, 'the build started');
    process.kill(-(watcher.pid ?? 0), 'SIGINT');
    await waitFor(() => watcher.output.stderr.includes('Ctrl-C again'), 5_000, 'the first Ctrl-C answered');
    expect(watcher.output.stderr).toMatch(/stopping once the running command .* finishes/);
    process.kill(-(watcher.pid ?? 0), 'SIGINT');
    const result = await watcher.result;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/stopped the running command; the change is not recorded and triggers again/);
    // The build was stopped with the watcher, not left running on its own: its shell (which would write the
    // counter after the sleep) is gone.
    const shell = Number((await readFile(started, 'utf8')).trim());
    const alive = () => {
      try {
        process.kill(shell, 0);
      } catch {
        return false;
      }
      // A process that ended but that no init reaped yet (a container's PID 1 may not) is a zombie: it runs nothing.
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${shell}/stat`, 'utf8'));
      } catch {
        return true;
      }
    };
    await waitFor(() => !alive(), 2_000, "the build's shell to end");
    expect(await lines(counter)).toBe(0);
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(state.rss.items[0].title).not.toBe('During two Ctrl-C');
  });

  it('an upstream error line says what failed, then "retrying in": no "retry later" of the client, no ".;"', async () => {
    const state = join(dir, 'state.json');
    const watcher = startCli(watchArgs(['--interval', '200ms', '--debounce', '0', '--run', 'true']));
    const stderr = () => watcher.output.stderr;
    await waitFor(() => stderr().includes('baseline recorded'), 10_000, 'baseline');
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', status: 503 });
    await waitFor(() => /upstream error: .*\n/.test(stderr()), 15_000, 'an upstream error');
    await admin(sim.url, 'DELETE', 'faults');
    const healthy = stderr().length;
    await waitFor(() => stderr().slice(healthy).includes('no change'), 15_000, 'a poll after the fault');
    // Feeds that suddenly come back empty: the reason, the retry, then what only the user can do.
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', body: EMPTY_FEED.rss });
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/sitemap.xml', body: EMPTY_FEED.sitemap });
    await waitFor(() => stderr().includes('came back with 0 entries'), 15_000, 'a suspect feed');
    watcher.kill('SIGINT');
    expect((await watcher.result).code).toBe(0);
    const errors = stderr()
      .split('\n')
      .filter((line) => line.includes('upstream error:'));
    expect(errors[0]).toMatch(
      /^\[watch \d\d:\d\d:\d\d\] upstream error: \[GET\] \/api\/sites\/12\/rss\.xml: 503 Service Unavailable: Simulated fault: HTTP 503; retrying in 400ms$/,
    );
    const suspect = errors.find((line) => line.includes('came back with 0 entries'));
    expect(suspect).toMatch(/^\[watch \d\d:\d\d:\d\d\] upstream error: For site 12, /);
    expect(suspect!.slice(suspect!.indexOf('For site 12'))).toBe(
      'For site 12, the RSS feed came back with 0 entries where 50 were seen and the sitemap came back with 0 entries where 60 were seen: ' +
        'losing more than half at once looks like an upstream accident, so nothing was triggered and the state was kept; retrying in 400ms. ' +
        `If those articles really were unpublished, delete the state file ${state} and run once with --trigger-on-first-run (the build then removes them; set articlesLoader({ allowMassRemoval: true }) for that build, or its guard keeps them too).`,
    );
    for (const line of errors) {
      expect(line).not.toMatch(/retry later|\.;/);
    }
  });

  it('an outage logs its first failure once, not every retry of every poll, and says when upstream answers again', async () => {
    const watcher = startCli(watchArgs(['--interval', '200ms', '--debounce', '0', '--run', 'true']));
    const stderr = () => watcher.output.stderr;
    const failed503 = () => sim.stats().routes['GET /api/sites/:id/rss.xml']?.[503] ?? 0;
    await waitFor(() => stderr().includes('baseline recorded'), 10_000, 'baseline');
    // A blip the client's retry absorbs, outside an outage: its notice still shows, and no upstream error.
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', status: 503, times: 1 });
    await waitFor(() => stderr().includes('retry 1 of 2'), 10_000, 'the notice of a retry');
    sim.resetStats();
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/*', status: 503 });
    // Three polls failed: each feed asked three times per poll (the client retries twice).
    await waitFor(() => failed503() >= 9, 20_000, 'three failed polls');
    await admin(sim.url, 'DELETE', 'faults');
    const outage = stderr().length;
    await waitFor(() => stderr().slice(outage).includes('no change'), 20_000, 'a poll after the outage');
    watcher.kill('SIGINT');
    expect((await watcher.result).code).toBe(0);

    const lines = stderr().split('\n');
    expect(lines.filter((line) => line.includes('upstream error'))).toHaveLength(1);
    const first = lines.findIndex((line) => line.includes('upstream error'));
    expect(lines[first]).toMatch(
      /^\[watch \d\d:\d\d:\d\d\] upstream error: \[GET\] \/api\/sites\/12\/(rss|sitemap)\.xml: 503 Service Unavailable: Simulated fault: HTTP 503; retrying in 400ms$/,
    );
    // Nothing between the first failure and the end of the outage, though more polls failed meanwhile.
    expect(lines[first + 1]).toMatch(
      /^\[watch \d\d:\d\d:\d\d\] upstream answers again after (\d+) failed polls \(failing since \d\d:\d\d:\d\d\)$/,
    );
    const failedPolls = Number(/after (\d+) failed polls/.exec(lines[first + 1]!)![1]);
    expect(failedPolls).toBeGreaterThanOrEqual(3);
    // The client's retry notices: the blip's, then those of the outage's first poll only (2 feeds, 2 retries).
    const notices = lines.filter((line) => /-> server_error; retry [12] of 2 in \d+ ms$/.test(line));
    expect(notices.length).toBeLessThanOrEqual(1 + 4);
    expect(lines.slice(first + 2).some((line) => line.includes('no change'))).toBe(true);
  });

  it('upstream errors are logged with a growing backoff and the watcher keeps running', async () => {
    const counter = join(dir, 'runs.txt');
    const watcher = startCli(
      watchArgs(['--interval', '200ms', '--debounce', '0', '--json', '--run', `echo run >> ${counter}`]),
    );
    type Event = { event: string; retryInMs?: number; message?: string; failedPolls?: number };
    const events = () =>
      watcher.output.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Event);
    await waitFor(() => events().some((e) => e.event === 'baseline'), 10_000, 'baseline');
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', status: 503 });
    await waitFor(
      () => events().filter((e) => e.event === 'upstream-error').length >= 2,
      15_000,
      'two upstream errors',
    );
    const errors = events().filter((e) => e.event === 'upstream-error');
    expect(errors[0]!.message).toMatch(/503/);
    expect(errors[1]!.retryInMs).toBeGreaterThan(errors[0]!.retryInMs!);
    await admin(sim.url, 'DELETE', 'faults');
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'After the outage' });
    await waitFor(async () => (await lines(counter)) === 1, 15_000, 'a trigger after the outage');
    // Every failure is a JSON line, numbered within the outage; its end is one more.
    const all = events();
    const failed = all.filter((e) => e.event === 'upstream-error');
    expect(failed.map((e) => e.failedPolls)).toEqual(failed.map((_, i) => i + 1));
    expect(failed[0]).toMatchObject({ code: 'server_error', hint: 'The service failed: retry later.' });
    const recovered = all.filter((e) => e.event === 'upstream-recovered');
    expect(recovered).toEqual([expect.objectContaining({ failedPolls: failed.length, since: expect.any(String) })]);
    expect(all.indexOf(recovered[0]!)).toBe(all.indexOf(failed.at(-1)!) + 1);
    watcher.kill('SIGINT');
    expect((await watcher.result).code).toBe(0);
  });
});
