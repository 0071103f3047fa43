import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSimulatorArgs } from '../../src/simulator/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = resolve(ROOT, 'dist/cli/bin.js');

describe('content-publisher simulator (built CLI)', () => {
  it('prints exactly one JSON line, serves, and stops with exit code 0 on SIGTERM', async () => {
    expect(existsSync(BIN), 'run `npm run build` first (npm test does)').toBe(true);
    const child = spawn(
      process.execPath,
      [BIN, 'simulator', '--port', '0', '--seed', '3', '--articles', '4', '--rate-limits', 'first'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit');
    try {
      await new Promise<void>((done, fail) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('\n')) done();
        });
        child.once('exit', () => fail(new Error(`simulator exited early: ${stderr}`)));
      });
      const info = JSON.parse(stdout.trim());
      expect(Object.keys(info)).toEqual(['url', 'tokens', 'sites', 'cmsUnreachable']);
      expect(info.cmsUnreachable).toEqual([13]);
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info.tokens).toEqual({
        free: 'btb_sim_free_1',
        solo: 'btb_sim_solo_1',
        pro: 'btb_sim_pro_1',
        agence: 'btb_sim_agence_1',
      });
      expect(info.sites).toEqual({ pro: [12, 13], agence: [21, 22] });

      const me = await fetch(`${info.url}/api/v1/me/`, { headers: { authorization: `Bearer ${info.tokens.pro}` } });
      expect((await me.json()).rate_limit_per_hour).toBe(30);
      const list = await fetch(`${info.url}/api/v1/sites/12/articles/`, {
        headers: { authorization: `Bearer ${info.tokens.pro}` },
      });
      expect((await list.json()).results).toHaveLength(4);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await exited;
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stderr).toBe('');
  });

  it('stops promptly on SIGINT while a slow generate is still waiting (the delay does not keep it alive)', async () => {
    const child = spawn(process.execPath, [BIN, 'simulator', '--generate-delay-ms', '120000'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const exited = once(child, 'exit');
    await new Promise<void>((done) =>
      child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), stdout.includes('\n') && done())),
    );
    const info = JSON.parse(stdout.trim());
    const pending = fetch(`${info.url}/api/v1/sites/12/generate/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.tokens.pro}`, 'content-type': 'application/json' },
      body: JSON.stringify({ topic: 'slow', type: 'news', length: 'short' }),
    }).catch((error: unknown) => error);
    await new Promise((r) => setTimeout(r, 300)); // the request is now waiting in the simulator
    const started = performance.now();
    child.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(performance.now() - started).toBeLessThan(3_000);
    await pending;
  });

  it('exits 2 naming the flag for a port in use and a bad --variant (not 1, "a bug")', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const run = async (args: string[]) => {
        const child = spawn(process.execPath, [BIN, 'simulator', ...args], {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const [code] = await once(child, 'exit');
        return { code, stderr };
      };
      const [inUse, variant] = await Promise.all([run(['--port', String(port)]), run(['--variant', 'listMax=abc'])]);
      expect(inUse.code).toBe(2);
      expect(inUse.stderr).toContain(
        `\`--port ${port}\` is already in use on 127.0.0.1: pick another port, or --port 0`,
      );
      expect(variant.code).toBe(2);
      expect(variant.stderr).toContain('`--variant listMax=abc`: listMax takes N|none (got "abc").');
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });

  it('exits 2 with a message naming the flag on a bad value', async () => {
    const child = spawn(process.execPath, [BIN, 'simulator', '--articles', 'many'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('`--articles` must be a non-negative integer (got "many")');
  });
});

describe('parseSimulatorArgs', () => {
  it('maps every flag to its option', () => {
    expect(
      parseSimulatorArgs([
        '--port',
        '4321',
        '--seed',
        '7',
        '--articles',
        '100',
        '--rate-limits',
        'first',
        '--window-ms',
        '1000',
        '--generate-delay-ms',
        '0',
        '--rate-limit-override',
        '5000',
      ]),
    ).toEqual({
      options: {
        port: 4321,
        seed: 7,
        articles: 100,
        rateLimits: 'first',
        windowMs: 1000,
        generateDelayMs: 0,
        rateLimitOverride: 5000,
      },
      help: false,
    });
  });

  it('refuses unknown flags and bad values with a message naming them', () => {
    expect(parseSimulatorArgs(['--prot', '1'])).toEqual({ error: expect.stringContaining("Unknown option '--prot'") });
    expect(parseSimulatorArgs(['--rate-limits', 'third'])).toEqual({
      error: expect.stringContaining('`--rate-limits` must be "first" or "second"'),
    });
    // Values the options schema refuses: named by the flag, not by startSimulator()'s option.
    const cases: Array<[string[], string]> = [
      [['--profile', 'bogus'], '`--profile` must be one of current, paged, sparse, multilingual, lax (got "bogus").'],
      [['--variant', 'listMax=abc'], '`--variant listMax=abc`: listMax takes N|none (got "abc").'],
      [['--variant', 'nope=1'], '`--variant nope=1`: no variant "nope". Variants: listDefault, listMax, paging,'],
      [['--port', '99999'], '`--port` must be at most 65535 (got 99999).'],
      [['--window-ms', '0'], '`--window-ms` must be at least 1 (got 0).'],
    ];
    for (const [argv, message] of cases) {
      const parsed = parseSimulatorArgs(argv) as { error: string };
      expect(parsed.error, argv.join(' ')).toContain(message);
      expect(parsed.error).not.toMatch(/startSimulator/);
    }
  });
});
