/**
 * Deploy hooks by name (Netlify, Vercel, Cloudflare, GitHub repository_dispatch) and their secrets: the
 * request each host expects, and the hook URL, its credentials and the token never reaching output.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildHookRequest, expandHookShorthand, inferHookProvider } from '../../src/watch/hook-request.js';
import { admin, runCli } from '../cli/run-cli.js';

const SECRET_PATH = 'hooks/s3cret-deploy-id';
const PASSWORD = 'pa55-w0rd-leak';
const TOKEN = 'ghp_leakcheck_token_123';

describe('buildHookRequest: what each host expects', () => {
  const base = { site: 12, changes: 2 };
  it('recognises the hosts from their hook URLs', () => {
    expect(inferHookProvider('https://api.netlify.com/build_hooks/abc')).toBe('netlify');
    expect(inferHookProvider('https://api.vercel.com/v1/integrations/deploy/prj_1/xyz')).toBe('vercel');
    expect(inferHookProvider('https://api.cloudflare.com/client/v4/pages/webhooks/deploy_hooks/123')).toBe(
      'cloudflare',
    );
    expect(inferHookProvider(expandHookShorthand('github:acme/blog'))).toBe('github');
    expect(expandHookShorthand('github:acme/blog')).toBe('https://api.github.com/repos/acme/blog/dispatches');
    expect(inferHookProvider('https://hooks.example.com/x')).toBe('generic');
  });

  it('Netlify: JSON body and a trigger_title; Vercel and Cloudflare: an empty POST', () => {
    const netlify = buildHookRequest({ ...base, url: 'https://api.netlify.com/build_hooks/abc', provider: 'netlify' });
    expect(new URL(netlify.url).searchParams.get('trigger_title')).toBe(
      'content-publisher watch: 2 change(s) on site 12',
    );
    expect(JSON.parse(netlify.init.body ?? '')).toEqual({ source: 'content-publisher watch', site: 12, changes: 2 });
    for (const provider of ['vercel', 'cloudflare'] as const) {
      const request = buildHookRequest({ ...base, url: 'https://api.example.com/hook', provider });
      expect(request.init.method).toBe('POST');
      expect(request.init.body).toBeUndefined();
    }
  });

  it('GitHub: repository_dispatch with a bearer token, API version and event_type', () => {
    const request = buildHookRequest({
      ...base,
      url: 'https://api.github.com/repos/acme/blog/dispatches',
      provider: 'github',
      token: TOKEN,
    });
    expect(request.init.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
    });
    expect(JSON.parse(request.init.body ?? '')).toEqual({
      event_type: 'content-published',
      client_payload: { source: 'content-publisher watch', site: 12, changes: 2 },
    });
  });

  it('credentials in the URL become a Basic header and leave the URL', () => {
    const request = buildHookRequest({
      ...base,
      url: `https://deploy:${PASSWORD}@ci.example.com/job`,
      provider: 'generic',
    });
    expect(request.url).toBe('https://ci.example.com/job');
    expect(request.init.headers.authorization).toBe(`Basic ${Buffer.from(`deploy:${PASSWORD}`).toString('base64')}`);
  });
});

describe('watch with a hook from the environment or a file', () => {
  let sim: Simulator;
  let server: Server;
  let port = 0;
  let dir: string;
  const received: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  const args = (extra: string[]) => [
    'watch',
    '--site',
    '12',
    '--base-url',
    sim.url,
    '--state',
    join(dir, 'state.json'),
    '--once',
    '--trigger-on-first-run',
    '--json',
    ...extra,
  ];
  const leaks = (text: string) => [PASSWORD, 's3cret-deploy-id', TOKEN].filter((secret) => text.includes(secret));

  beforeAll(async () => {
    sim = await startSimulator({ articles: 5 });
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ url: req.url ?? '', headers: req.headers, body });
        res.writeHead(req.url?.includes('dispatches') ? 204 : 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await sim.close();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(async () => {
    await admin(sim.url, 'POST', 'reset');
    dir = await mkdtemp(join(tmpdir(), 'hooks-'));
    received.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('--hook-env: credentials sent as Basic auth; neither the path nor the password in stdout, stderr or --json', async () => {
    const result = await runCli(args(['--hook-env', 'MY_DEPLOY_HOOK']), {
      env: { MY_DEPLOY_HOOK: `http://deploy:${PASSWORD}@127.0.0.1:${port}/${SECRET_PATH}` },
    });
    expect(result.code).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe(`/${SECRET_PATH}`);
    expect(received[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`deploy:${PASSWORD}`).toString('base64')}`);
    expect(leaks(result.stdout + result.stderr)).toEqual([]);
  });

  it('--hook-file with --hook-provider github: a repository_dispatch with the token from GITHUB_TOKEN, never printed', async () => {
    const file = join(dir, 'hook.txt');
    await writeFile(file, `# the deploy hook\nhttp://127.0.0.1:${port}/repos/acme/blog/dispatches\n`);
    const result = await runCli(args(['--hook-file', file, '--hook-provider', 'github']), {
      env: { GITHUB_TOKEN: TOKEN },
    });
    expect(result.code).toBe(0);
    expect(received[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      event_type: 'content-published',
      client_payload: { site: 12 },
    });
    expect(leaks(result.stdout + result.stderr)).toEqual([]);

    const missing = await runCli(args(['--hook-file', file, '--hook-provider', 'github']));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the github deploy hook needs a token: set the environment variable GITHUB_TOKEN');
  });

  it("an unreachable hook: the reason without fetch's text, so without the URL or its credentials", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await runCli(args(['--hook-env', 'H']), {
      env: { H: `http://deploy:${PASSWORD}@127.0.0.1:${deadPort}/${SECRET_PATH}` },
    });
    expect(result.code).toBe(13);
    expect(result.stdout + result.stderr).toContain('could not be reached (ECONNREFUSED)');
    expect(leaks(result.stdout + result.stderr)).toEqual([]);
  });

  it('--hook-env naming an unset variable, or two hook sources, is a usage error', async () => {
    expect((await runCli(args(['--hook-env', 'NOPE_UNSET']))).stderr).toContain(
      '--hook-env NOPE_UNSET: the environment variable NOPE_UNSET is not set or empty.',
    );
    expect((await runCli(args(['--hook-env', 'A', '--hook', 'https://x.example/']))).stderr).toContain(
      'give the deploy hook once: --hook and --hook-env were both given.',
    );
  });
});
