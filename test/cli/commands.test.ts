/**
 * Every command of `content-publisher`, spawned as a user runs it, against the simulator over HTTP:
 * the table output, the --json shape and the exit code for success, then each error class.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { parseSimulatorArgs } from '../../src/simulator/cli.js';
import { admin, runCli, startCli, type CliResult } from './run-cli.js';

let sim: Simulator;
let dir: string;

/** Runs as the pro user (site 12) unless `env` says otherwise. */
function cli(args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<CliResult> {
  return runCli(args, {
    env: { PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro, ...env },
    ...(input !== undefined && { input }),
  });
}

function noKey(result: CliResult): void {
  for (const token of Object.values(sim.tokens)) {
    expect(result.stdout).not.toContain(token);
    expect(result.stderr).not.toContain(token);
  }
  expect(`${result.stdout}${result.stderr}`).not.toContain('btb_leakcheck');
}

beforeAll(async () => {
  // A high limit: this file sends more requests than the pro plan's hourly limit.
  sim = await startSimulator({ rateLimitOverride: 10_000 });
  dir = await mkdtemp(join(tmpdir(), 'cli-'));
});

afterAll(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('success: tables, --json and exit code 0', () => {
  it('me', async () => {
    const [table, json] = await Promise.all([cli(['me']), cli(['me', '--json'])]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^username: +pro-user$/m);
    expect(table.stdout).toMatch(/^plan: +pro$/m);
    expect(table.stdout).toMatch(/^articles this month: +\d+ of 30 \(\d{4}-\d{2}\)$/m);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      username: 'pro-user',
      plan: 'pro',
      usage: { articles_per_month_limit: 30 },
    });
    noKey(table);
  });

  it('sites', async () => {
    const [table, json] = await Promise.all([cli(['sites']), cli(['sites', '--json'])]);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID +NAME +DOMAIN +CMS$/);
    expect(table.stdout).toMatch(/^12 +Pro Blog +pro-blog\.example\.com +no$/m);
    expect((JSON.parse(json.stdout) as Array<{ id: number }>).map((s) => s.id)).toEqual([12, 13]);
  });

  it('articles with --language and --limit, and article', async () => {
    const [table, json] = await Promise.all([
      cli(['articles', '12', '--language', 'fr', '--limit', '3']),
      cli(['articles', '12', '--limit', '2', '--json']),
    ]);
    expect(table.code).toBe(0);
    const rows = table.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^SLUG +TITLE +LANG +PUBLISHED +VIEWS +STATUS$/);
    expect(rows).toHaveLength(4);
    expect(rows.slice(1).every((row) => / fr +\d{4}-\d{2}-\d{2} +\d+ +published$/.test(row))).toBe(true);
    const list = JSON.parse(json.stdout) as Array<{ slug: string }>;
    expect(list).toHaveLength(2);

    const slug = list[0]!.slug;
    const [detail, detailJson] = await Promise.all([
      cli(['article', '12', slug]),
      cli(['article', '12', slug, '--json']),
    ]);
    expect(detail.code).toBe(0);
    expect(detail.stdout).toMatch(new RegExp(`^url: +https://pro-blog\\.example\\.com/blog/${slug}/$`, 'm'));
    expect(detail.stdout).toMatch(/^content: +\d+ characters of HTML/m);
    expect(JSON.parse(detailJson.stdout)).toMatchObject({ slug, content: expect.stringContaining('<h2') });
  });

  it('the articles table never cuts a slug: it is what `article` takes', async () => {
    const [table, json] = await Promise.all([cli(['articles', '12']), cli(['articles', '12', '--json'])]);
    const slugs = (JSON.parse(json.stdout) as Array<{ slug: string }>).map((a) => a.slug);
    const long = slugs.filter((slug) => slug.length > 40);
    expect(long.length, 'the simulator has slugs longer than 40 characters').toBeGreaterThan(0);
    const column = table.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((row) => row.split(/\s+/)[0]);
    expect(column).toEqual(slugs);
  });

  it('generate shows the quota, the output log and the post count; refuses without --yes outside a terminal', async () => {
    sim.resetStats();
    const refused = await cli(['generate', '12', '--topic', 'Static sites']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/pass --yes to confirm/);
    expect(sim.stats().authenticated).toBe(0);

    const done = await cli([
      'generate',
      '12',
      '--topic',
      'Static sites',
      '--type',
      'guide',
      '--length',
      'short',
      '--yes',
    ]);
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(/Quota: \d+ of 30 articles left this month/);
    expect(done.stderr).toMatch(/Generating on site 12: done in \d+ s/);
    expect(done.stdout).toMatch(/Audit score: \d+\/100/);
    expect(done.stdout).toMatch(/^Post count: \d+$/m);
    const json = await cli(['generate', '12', '--title', 'Second one', '--yes', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      output: expect.stringContaining('Published: https://'),
      post_count: expect.any(Number),
    });
    const badType = await cli(['generate', '12', '--topic', 'x', '--type', 'poem', '--yes']);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toMatch(/--type must be one of news, tutorial/);
  });

  it('audit of a Markdown file and of HTML on stdin', async () => {
    const draft = join(dir, 'draft.md');
    await writeFile(draft, '# Coffee brewing at home\n\n## Beans\n\nFresh **coffee** beans.\n\n- grind\n- brew\n');
    const table = await cli(['audit', '--file', draft, '--keyword', 'coffee', '--language', 'en']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^score: +\d+\/100$/m);
    expect(table.stdout).toMatch(/^TYPE +MESSAGE$/m);
    const html = '<h1>Draft</h1><h2>One</h2><p>coffee text</p>';
    const first = await cli(['audit', '--keyword', 'coffee', '--language', 'en', '--json'], {}, html);
    const second = await cli(['audit', '--keyword', 'coffee', '--language', 'en', '--json'], {}, html);
    expect(JSON.parse(first.stdout)).toMatchObject({
      score: expect.any(Number),
      suggestions: expect.any(Array),
      cache_hit: false,
    });
    expect(JSON.parse(second.stdout).cache_hit).toBe(true);
    const missing = await cli(['audit', '--file', draft, '--language', 'en']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--keyword is required/);
  });

  it('brief, keywords, snapshot and digest', async () => {
    const results = await Promise.all([
      cli(['brief', '--keyword', 'astro blog', '--language', 'en']),
      cli(['brief', '--keyword', 'astro blog', '--language', 'en', '--json']),
      cli(['keywords', '12']),
      cli(['keywords', '12', '--json']),
      cli(['snapshot', '12']),
      cli(['digest', '12']),
      cli(['digest', '12', '--json']),
    ]);
    const [brief, briefJson, keywords, keywordsJson, snapshot, digest, digestJson] = results;
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(brief!.stdout).toMatch(/^intent: +\S+/m);
    expect(brief!.stdout).toMatch(/^Outline:\n {2}- /m);
    expect(Object.keys(JSON.parse(briefJson!.stdout))).toEqual(
      expect.arrayContaining(['intent', 'outline', 'entities', 'faq', 'eeat_signals']),
    );
    expect(keywords!.stdout.split('\n')[0]).toMatch(/^KEYWORD +POSITION +PREVIOUS +MOVE +VOLUME +URL$/);
    expect(JSON.parse(keywordsJson!.stdout)[0]).toMatchObject({
      keyword: expect.any(String),
      position: expect.any(Number),
    });
    expect(snapshot!.stdout).toMatch(/^Updated: \d+ keyword positions$/m);
    expect(digest!.stdout).toMatch(/^week: +\d{4}-W\d{2}$/m);
    expect(digest!.stdout).toMatch(/^Position movements:\nKEYWORD +FROM +TO +MOVE +URL$/m);
    expect(JSON.parse(digestJson!.stdout)).toMatchObject({
      week: expect.any(String),
      average_audit_score: expect.any(Number),
      alerts: expect.any(Array),
    });
  });

  it("articles on a service that pages its list: stderr says how many and gives the next page's command", async () => {
    const paged = await startSimulator({ profile: 'paged', articles: 130 });
    try {
      const env = { PUBLISHER_BASE_URL: paged.url, PUBLISHER_API_KEY: paged.tokens.pro };
      const first = await cli(['articles', '12'], env);
      expect(first.code).toBe(0);
      expect(first.stdout.trim().split('\n')).toHaveLength(51);
      expect(first.stderr).toBe(
        '50 of 130 articles shown; the service pages this list. Next page: content-publisher articles 12 --offset 50\n',
      );
      const [second, last, json] = await Promise.all([
        cli(['articles', '12', '--offset', '50'], env),
        cli(['articles', '12', '--offset', '100'], env),
        cli(['articles', '12', '--json', '--limit', '500'], env),
      ]);
      expect(second.stderr).toMatch(/^50 of 130 articles shown; .* content-publisher articles 12 --offset 100$/m);
      expect(second.stdout.split('\n')[1]).not.toBe(first.stdout.split('\n')[1]);
      expect(last.code).toBe(0);
      expect(last.stdout.trim().split('\n')).toHaveLength(31);
      expect(last.stderr).toBe('');
      // --json keeps stdout one array; the hint goes to stderr.
      expect(JSON.parse(json.stdout)).toHaveLength(100);
      expect(json.stderr).toMatch(/Next page: content-publisher articles 12 --limit 500 --offset 100$/m);
    } finally {
      await paged.close();
    }
  });

  it('me and generate without `usage` in /me/ (the first description of the API)', async () => {
    const first = await startSimulator({ rateLimits: 'first' });
    try {
      const env = { PUBLISHER_BASE_URL: first.url, PUBLISHER_API_KEY: first.tokens.pro };
      const [me, generate] = await Promise.all([
        runCli(['me'], { env }),
        runCli(['generate', '12', '--topic', 'x', '--yes'], { env }),
      ]);
      expect(me.stdout).toMatch(/^rate limit: +30 requests\/hour/m);
      expect(me.stdout).toMatch(/^articles this month: +not reported by the service$/m);
      expect(generate.code).toBe(0);
      expect(generate.stderr).toMatch(/Quota: not reported by the service \(plan pro\)/);
    } finally {
      await first.close();
    }
  });

  it('simulator: starts through the CLI and prints its JSON line', async () => {
    const { startCli } = await import('./run-cli.js');
    const child = startCli(['simulator', '--port', '0', '--articles', '3']);
    const { waitFor } = await import('./run-cli.js');
    await waitFor(() => child.output.stdout.includes('\n'), 15_000, 'the simulator line');
    const line = JSON.parse(child.output.stdout.split('\n')[0]!);
    expect(line).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      sites: { pro: [12, 13] },
      // Site 13 answers 502 by design: the line says so.
      cmsUnreachable: [13],
    });
    child.kill('SIGTERM');
    await child.result;
  });
});

describe('shapes API.md leaves open: what came is shown, nothing invented', () => {
  beforeEach(async () => {
    await admin(sim.url, 'DELETE', 'faults');
  });
  const snapshotRoute = 'POST /api/v1/sites/:id/keywords/snapshot/';
  const keywordsRoute = 'GET /api/v1/sites/:id/keywords/';
  const digestRoute = 'GET /api/v1/sites/:id/digest/weekly/';

  it('snapshot: an empty body, a bare array, an unknown object', async () => {
    await admin(sim.url, 'POST', 'faults', { route: snapshotRoute, body: 'empty', times: 1 });
    const empty = await cli(['snapshot', '12']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(
      /^Snapshot requested; the service's answer reports no positions \(empty\)\. `content-publisher keywords 12` shows the positions\.$/m,
    );
    expect(empty.stdout).not.toMatch(/Updated/);

    await admin(sim.url, 'POST', 'faults', {
      route: snapshotRoute,
      json: [{ keyword: 'astro', position: 3 }],
      times: 1,
    });
    const bare = await cli(['snapshot', '12']);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toMatch(/^Updated: 1 keyword position$/m);
    expect(bare.stdout).toMatch(/^astro +3 /m);

    await admin(sim.url, 'POST', 'faults', { route: snapshotRoute, json: { status: 'queued' }, times: 2 });
    const queued = await cli(['snapshot', '12']);
    expect(queued.code).toBe(0);
    expect(queued.stdout).toMatch(/the service answered \(no positions in it\):\n\{\n {2}"status": "queued"\n\}/);
    expect(queued.stdout).not.toMatch(/Updated/);
    expect(JSON.parse((await cli(['snapshot', '12', '--json'])).stdout)).toEqual({ status: 'queued' });
  });

  it('keywords: another wrapper and other field names are shown as they came; an ambiguous body names what was expected', async () => {
    await admin(sim.url, 'POST', 'faults', {
      route: keywordsRoute,
      json: { site: 12, keywords: [{ term: 'astro blog', rank: 4 }] },
      times: 1,
    });
    const other = await cli(['keywords', '12']);
    expect(other.code).toBe(0);
    expect(other.stdout).toMatch(/^TERM +RANK\nastro blog +4$/m);

    await admin(sim.url, 'POST', 'faults', { route: keywordsRoute, json: { a: [], b: [] }, times: 1 });
    const ambiguous = await cli(['keywords', '12']);
    expect(ambiguous.code).toBe(12);
    expect(ambiguous.stderr).toMatch(
      /expected the tracked keywords as an array of records, or an object holding one such array \(like `results`\); got an object with several arrays \(a, b\)/,
    );
  });

  it('digest: other fields are shown, not refused', async () => {
    await admin(sim.url, 'POST', 'faults', { route: digestRoute, json: { summary: 'quiet week', posts: 2 }, times: 1 });
    const other = await cli(['digest', '12']);
    expect(other.code).toBe(0);
    expect(other.stdout).toMatch(/^Weekly digest:\n\{\n {2}"summary": "quiet week",\n {2}"posts": 2\n\}$/m);
    expect(other.stderr).toBe('');

    await admin(sim.url, 'POST', 'faults', { route: digestRoute, drift: { add: { mood: 'calm' } }, times: 1 });
    const extra = await cli(['digest', '12']);
    expect(extra.code).toBe(0);
    expect(extra.stdout).toMatch(/^week: +\d{4}-W\d{2}$/m);
    expect(extra.stdout).toMatch(/^Other fields:\n\{\n[\s\S]* {2}"mood": "calm"\n\}$/m);

    // Known fields in a shape the rendering does not know: as sent, not "(none)".
    await admin(sim.url, 'POST', 'faults', {
      route: digestRoute,
      json: { week: '2026-W48', alerts: 'none', position_movements: { a: 1 } },
      times: 1,
    });
    const shapes = await cli(['digest', '12']);
    expect(shapes.code).toBe(0);
    expect(shapes.stdout).toContain('Alerts (as sent):\n"none"');
    expect(shapes.stdout).toMatch(/^Position movements \(as sent\):\n\{\n {2}"a": 1\n\}$/m);
  });
});

describe('errors: one line with the hint, a distinct exit code per class', () => {
  // watch's state file of the unknown-site case (never written: the run fails first).
  const stateDir = mkdtempSync(join(tmpdir(), 'cli-errors-'));
  afterAll(() => rmSync(stateDir, { recursive: true, force: true }));
  beforeEach(async () => {
    await admin(sim.url, 'DELETE', 'faults');
  });

  const cases: Array<{
    name: string;
    code: number;
    args: string[];
    env?: Record<string, string | undefined>;
    fault?: unknown;
    line: RegExp;
  }> = [
    {
      name: '401 unknown token',
      code: 4,
      args: ['me', '--verbose'],
      env: { PUBLISHER_API_KEY: 'btb_leakcheck_cli_1' },
      line: /^content-publisher: 401: The service refused the API key \(unknown or revoked\): .* pass it with --api-key-file FILE or PUBLISHER_API_KEY\. \[GET/m,
    },
    {
      name: 'no key at all',
      code: 4,
      args: ['sites'],
      env: { PUBLISHER_API_KEY: undefined },
      line: /^content-publisher: no API key: set PUBLISHER_API_KEY or pass --api-key-file/,
    },
    {
      // The client's own fix (createClient({ apiKey })) means nothing here: the key came from the environment.
      name: 'malformed key',
      code: 2,
      args: ['sites'],
      env: { PUBLISHER_API_KEY: 'sim_pro_1' },
      line: /^content-publisher: The API key \(PUBLISHER_API_KEY or --api-key-file\) must start with btb_ \(the value is not shown\)\. Copy the token created in the dashboard at \/account\/api-keys into PUBLISHER_API_KEY or the file of --api-key-file\.$/m,
    },
    {
      name: '403 free plan',
      code: 5,
      args: ['me'],
      env: { PUBLISHER_API_KEY: 'btb_sim_free_1' },
      line: /^content-publisher: 403: The API is only available on the Pro and Agence plans: move to Pro or higher\. \[GET \/api\/v1\/me\/: /,
    },
    {
      name: '403 solo plan',
      code: 5,
      args: ['sites'],
      env: { PUBLISHER_API_KEY: 'btb_sim_solo_1' },
      line: /^content-publisher: 403: /,
    },
    {
      name: '402 quota',
      code: 6,
      args: ['generate', '12', '--topic', 'x', '--yes'],
      fault: {
        route: 'POST /api/v1/sites/:id/generate/',
        status: 402,
        json: { error: 'Monthly quota and credits exhausted.' },
      },
      // The progress line ends "failed", not "done", before the error.
      line: /^Generating on site 12: failed after \d+ s\ncontent-publisher: 402: The monthly article quota and the credits are used up: buy credits or wait for the first day of the month\. \[POST \/api\/v1\/sites\/12\/generate\/: Monthly quota/m,
    },
    {
      name: 'generate: connection lost after the request (the article may exist)',
      code: 11,
      args: ['generate', '12', '--topic', 'x', '--yes'],
      fault: { route: 'POST /api/v1/sites/:id/generate/', drop: 'mid-body', times: 1 },
      // "network error" once (the client's message says it already).
      line: /^content-publisher: \[POST\] \/api\/v1\/sites\/12\/generate\/: network error: .*\. The service may already have generated and published the article \(and used one quota unit or credit\): check `content-publisher articles 12` before running generate again\.$/m,
    },
    {
      // The service published the article, then failed: a blind retry would publish a second one.
      name: 'generate: a 500 after the work was done',
      code: 10,
      args: ['generate', '12', '--topic', 'x', '--yes'],
      fault: { route: 'POST /api/v1/sites/:id/generate/', status: 500, drift: {}, times: 1 },
      line: /^content-publisher: 500: The service failed\. The service may already have generated and published the article \(and used one quota unit or credit\): check `content-publisher articles 12` before running generate again\. \[POST \/api\/v1\/sites\/12\/generate\/\]$/m,
    },
    {
      name: 'generate: connection dropped before the headers',
      code: 11,
      args: ['generate', '12', '--topic', 'x', '--yes'],
      fault: { route: 'POST /api/v1/sites/:id/generate/', drop: 'before-headers', times: 1 },
      line: /^content-publisher: \[POST\] [^\n]*network error: .* check `content-publisher articles 12` before running generate again\.$/m,
    },
    {
      // A malformed 200: the service received the call and may have published the article, as after a 5xx.
      name: 'generate: a truncated 200 (the article may exist)',
      code: 12,
      args: ['generate', '12', '--topic', 'x', '--yes'],
      fault: { route: 'POST /api/v1/sites/:id/generate/', body: 'truncated', times: 1 },
      line: /^content-publisher: unexpected response from the service: .*\. The service may already have generated and published the article \(and used one quota unit or credit\): check `content-publisher articles 12` before running generate again\.$/m,
    },
    {
      // watch reads the public feeds with no key: a 404 there is about the site.
      name: 'watch: an unknown site',
      code: 7,
      args: ['watch', '--site', '999', '--once', '--run', 'true', '--state', join(stateDir, 'unknown-site.json')],
      line: /^content-publisher: 404: Check the site id \(--site\): the service has no public feed for it \(an unknown or inactive site\)\. \[GET \/api\/sites\/999\/rss\.xml/m,
    },
    {
      name: '404 another site',
      code: 7,
      args: ['articles', '21'],
      line: /^content-publisher: 404: Check the site id or the article slug/,
    },
    {
      name: '429 rate limited',
      code: 8,
      args: ['me'],
      fault: { route: 'GET /api/v1/me/', status: 429, retryAfter: 600, json: { error: 'Rate limit exceeded.' } },
      line: /^content-publisher: 429: Wait 600 seconds, cache responses on the client, or move to a higher plan/,
    },
    {
      name: '502 CMS unavailable',
      code: 9,
      args: ['articles', '13'],
      line: /^content-publisher: 502: The site's remote CMS is unreachable: retry later and check the site's CMS credentials in the dashboard\. \[GET /m,
    },
    {
      name: 'generate: 502 CMS unavailable (it may fail at the publishing step)',
      code: 9,
      args: ['generate', '13', '--topic', 'x', '--yes'],
      line: /^content-publisher: 502: The site's remote CMS is unreachable: check the site's CMS credentials in the dashboard\. The service may already have generated and published the article \(and used one quota unit or credit\): check `content-publisher articles 13` before running generate again\. \[POST /m,
    },
    {
      name: '500 server error',
      code: 10,
      args: ['sites'],
      fault: { route: 'GET /api/v1/sites/', status: 500 },
      line: /^content-publisher: 500: /m,
    },
    {
      name: 'network',
      code: 11,
      args: ['me', '--base-url', 'http://127.0.0.1:9'],
      // The retry notices in the command's name, then "network error" said once.
      line: /^content-publisher: GET \/api\/v1\/me\/ -> network; retry 1 of 2 in \d+ ms\n[\s\S]*^content-publisher: \[GET\] \/api\/v1\/me\/: network error: [^\n]*127\.0\.0\.1:9 is reachable \(--base-url or PUBLISHER_BASE_URL\), then retry\.$/m,
    },
    {
      name: 'plain http to another machine',
      code: 2,
      args: ['me', '--base-url', 'http://publisher.example.com'],
      line: /^content-publisher: --base-url \(or PUBLISHER_BASE_URL\) uses plain http to publisher\.example\.com, .*cleartext\. Use an https:\/\/ address: the command line sends the key over plain http only to this machine\.$/m,
    },
    {
      name: 'base URL with /api/v1',
      code: 2,
      args: ['me', '--base-url', 'https://publisher.example.com/api/v1'],
      // The fix once: the address to use, not a second example of another one.
      line: /^content-publisher: --base-url \(or PUBLISHER_BASE_URL\) must be the service address without \/api\/v1 \(got "https:\/\/publisher\.example\.com\/api\/v1"\): drop the \/api\/v1, as in "https:\/\/publisher\.example\.com"\.$/m,
    },
    {
      name: 'bad response',
      code: 12,
      args: ['keywords', '12'],
      fault: { route: 'GET /api/v1/sites/:id/keywords/', body: 'html' },
      line: /^content-publisher: unexpected response from the service: .*got an HTML page .*Check that --base-url \(or PUBLISHER_BASE_URL\) points at the service itself/m,
    },
    {
      name: 'an answer over the size cap',
      code: 12,
      args: ['keywords', '12'],
      fault: { route: 'GET /api/v1/sites/:id/keywords/', body: 'huge', hugeBytes: 24 * 1024 * 1024 },
      line: /^content-publisher: unexpected response from the service: .*over the command line's 20971520-byte cap\. Check that --base-url \(or PUBLISHER_BASE_URL\) points at the service itself\.$/m,
    },
    {
      name: '400 bad request',
      code: 14,
      args: ['digest', '12'],
      fault: { route: 'GET /api/v1/sites/:id/digest/weekly/', status: 400, json: { error: 'Bad week.' } },
      line: /^content-publisher: 400: .*Bad week/,
    },
    {
      name: 'unknown option',
      code: 2,
      args: ['sites', '--colour'],
      // Not util.parseArgs's own wording, whose example ends in a broken quote: the command's options, a whole example.
      line: /^content-publisher: Unknown option '--colour' \(this command takes --base-url, [^)]*--json[^)]*\)\. An argument that starts with '-' goes after '--', as in: -- "--colour"\.\n[\s\S]*content-publisher sites --help/,
    },
    {
      name: 'bad site id',
      code: 2,
      args: ['articles', 'abc'],
      line: /^content-publisher: <site> must be a positive integer \(got "abc"\)/,
    },
    {
      name: 'no base URL',
      code: 2,
      args: ['me'],
      env: { PUBLISHER_BASE_URL: undefined },
      line: /^content-publisher: No service URL: pass --base-url URL or set PUBLISHER_BASE_URL/,
    },
    { name: 'unknown command', code: 2, args: ['publish'], line: /^content-publisher: Unknown command "publish"/ },
  ];

  // The client's option names mean nothing on the command line.
  const CLIENT_TERMS = /createClient|allowInsecureHttp|timeoutMs|baseUrl|as `apiKey`|max(?:Response|Feed)Bytes/;

  // Cases without a fault share nothing and run at once (each is a process start); fault cases run one by one.
  it('without faults, all at once', async () => {
    const plain = cases.filter((testCase) => !testCase.fault);
    const results = await Promise.all(plain.map((testCase) => cli(testCase.args, testCase.env ?? {})));
    plain.forEach((testCase, index) => {
      const result = results[index]!;
      expect({ name: testCase.name, code: result.code }).toEqual({ name: testCase.name, code: testCase.code });
      expect(result.stderr).toMatch(testCase.line);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toMatch(CLIENT_TERMS);
      noKey(result);
    });
  });

  it('404 where nothing answers the API (a path prefix the service lacks): check --base-url, not the site id', async () => {
    const result = await cli(['me'], { PUBLISHER_BASE_URL: `${sim.url}/foo` });
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(
      /^content-publisher: 404: Nothing answers this call at that address: check --base-url \(or PUBLISHER_BASE_URL\), the service address \(scheme, host and port, without \/api\/v1 or another path\), then the site id\. \[GET \/api\/v1\/me\//m,
    );
    expect(result.stderr).not.toMatch(CLIENT_TERMS);
  });

  for (const testCase of cases.filter((c) => c.fault)) {
    it(`${testCase.name} -> exit ${testCase.code}`, async () => {
      await admin(sim.url, 'POST', 'faults', testCase.fault);
      const result = await cli(testCase.args, testCase.env ?? {});
      expect(result.code).toBe(testCase.code);
      expect(result.stderr).toMatch(testCase.line);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toMatch(CLIENT_TERMS);
      noKey(result);
    });
  }

  it('--json also prints the error as one JSON document on stdout', async () => {
    const result = await cli(['me', '--json'], { PUBLISHER_API_KEY: 'btb_sim_free_1' });
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout)).toEqual({
      error: {
        code: 'forbidden',
        status: 403,
        message: expect.stringMatching(
          /^403: The API is only available on the Pro and Agence plans: move to Pro or higher\./,
        ),
        exitCode: 5,
      },
    });
  });

  it('--api-key-file is read and the key is never printed, even with --verbose', async () => {
    const keyFile = join(dir, 'key');
    await writeFile(keyFile, `${sim.tokens.pro}\n`);
    const result = await cli(['sites', '--verbose', '--api-key-file', keyFile], { PUBLISHER_API_KEY: undefined });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^12 +Pro Blog/m);
    noKey(result);
    const missing = await cli(['sites', '--api-key-file', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read --api-key-file .*nope: ENOENT/);
  });
});

describe('a reader that goes away (`content-publisher ... | head -c 0`)', () => {
  it('stdout closed before the output: exit 141 (128 + SIGPIPE, as a shell reports a Unix tool), no stack trace', async () => {
    const runs = [['articles', '12', '--json'], ['me']].map((args) => {
      const child = startCli(args, { env: { PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro } });
      child.stdin?.end();
      // The reader closes at once: the CLI's first write to stdout meets a pipe nobody reads (EPIPE).
      child.stdout?.destroy();
      return child.result;
    });
    for (const result of await Promise.all(runs)) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(141);
    }
  });
});

describe('--help', () => {
  it('every command has a help text with its usage and an example', async () => {
    const names = [
      'me',
      'sites',
      'articles',
      'article',
      'generate',
      'audit',
      'brief',
      'keywords',
      'snapshot',
      'digest',
      'watch',
      'simulator',
    ];
    const [global, ...results] = await Promise.all([
      runCli(['--help']),
      ...names.map((name) => runCli([name, '--help'])),
    ]);
    expect(global!.code).toBe(0);
    for (const name of names) expect(global!.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(global!.stdout).toMatch(/Exit codes: 0=ok, 1=unexpected, 2=usage, 3=unchanged, 4=unauthorized/);
    results.forEach((result, index) => {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: content-publisher ${names[index]}`));
      expect(result.stdout).toMatch(/Examples?:\n {2}\$ content-publisher|Examples?:\n {2}\$ npm/);
    });
    // The simulator parses its own flags (src/simulator/cli.ts): its help names every one it accepts.
    const simulator = results[names.indexOf('simulator')]!.stdout;
    const flags: Array<[string, string]> = [
      ['--port', '0'],
      ['--seed', '1'],
      ['--articles', '3'],
      ['--rate-limits', 'second'],
      ['--window-ms', '1000'],
      ['--generate-delay-ms', '0'],
      ['--rate-limit-override', '10'],
      ['--extra-pro-token', 'btb_x'],
      ['--profile', 'multilingual'],
      ['--variant', 'listMax=5'],
    ];
    // ... in the usage line as well as under Options.
    const usage = simulator.split('\n')[0]!;
    for (const [flag, value] of flags) {
      expect(parseSimulatorArgs([flag, value]), flag).not.toHaveProperty('error');
      expect(simulator, flag).toMatch(new RegExp(`^ {2}${flag} \\S+ +\\S`, 'm'));
      expect(usage, flag).toContain(`[${flag} `);
    }
    expect(simulator).toContain('sharedSlugs=true|false');
    // ... and no global option it refuses (it takes none of them but --help).
    for (const flag of ['--base-url', '--api-key-file', '--json', '--verbose']) {
      expect(simulator, flag).not.toContain(flag);
      expect(parseSimulatorArgs([flag]), flag).toHaveProperty('error');
    }
    // `help <command>` is `<command> --help`.
    const helpMe = await runCli(['help', 'articles']);
    expect(helpMe.code).toBe(0);
    expect(helpMe.stdout).toBe(results[names.indexOf('articles')]!.stdout);
    const bare = await runCli([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^Usage: content-publisher <command>/);
  });
});
