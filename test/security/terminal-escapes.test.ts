/**
 * Issue 15, item 10 (the terminal side): upstream titles carrying terminal escape sequences reached the
 * terminal raw through the CLI and `watch` (window title set, screen cleared, a newline in a title forging a
 * `triggered` line). Now every human output escapes C0/C1 controls as visible `\xNN`, one-line fields escape
 * newlines too, and JSON output stays valid JSON (DEL and C1 as \u escapes).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeControls, jsonSafe, oneLine } from '../../src/cli/terminal-text.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, runCli } from '../cli/run-cli.js';

const HOSTILE = 'Evil\u001b]0;pwned\u0007 title\u001b[2J\u009b31m\n[watch 00:00:00] triggered (forged)';
// eslint-disable-next-line no-control-regex
const RAW_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let sim: Simulator;
let dir: string;
beforeAll(async () => {
  sim = await startSimulator({ articles: 3 });
  dir = await mkdtemp(join(tmpdir(), 'terminal-escapes-'));
});
afterAll(async () => {
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('terminal-text (pure)', () => {
  it('makes every control a terminal acts on visible; JSON stays parseable', () => {
    expect(escapeControls('a\u001b[2Jb\u0007c\rd\u009be\tf\ng')).toBe('a\\x1b[2Jb\\x07c\\x0dd\\x9be\tf\ng');
    expect(oneLine('one\ntwo')).toBe('one\\ntwo');
    const json = jsonSafe(JSON.stringify({ title: HOSTILE }));
    expect(json).not.toMatch(RAW_CONTROLS);
    expect((JSON.parse(json) as { title: string }).title).toBe(HOSTILE);
  });
});

describe('the CLI and watch with a hostile title upstream', () => {
  it('watch prints the change with the escapes visible and no forged line', async () => {
    const state = join(dir, 'state.json');
    const args = ['watch', '--site', '12', '--base-url', sim.url, '--state', state, '--once', '--run', 'true'];
    await runCli(args); // the baseline
    await admin(sim.url, 'POST', 'articles', { site: 12, title: HOSTILE, slug: 'hostile-title' });
    const second = await runCli(args);
    const output = `${second.stdout}${second.stderr}`;
    expect(output).not.toMatch(RAW_CONTROLS);
    // (The feed parser already drops the C0 characters XML forbids; the C1 CSI and the newline remain.)
    expect(output).toContain('\\x9b31m\\n[watch 00:00:00] triggered (forged)');
    expect(output.split('\n').some((line) => line.startsWith('[watch 00:00:00]'))).toBe(false);
  });

  it('articles (table and --json) print no raw control character', async () => {
    const env = { PUBLISHER_API_KEY: sim.tokens.pro, PUBLISHER_BASE_URL: sim.url };
    const human = await runCli(['articles', '12'], { env });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('Evil\\x1b]0;pwned');
    expect(`${human.stdout}${human.stderr}`).not.toMatch(RAW_CONTROLS);
    const json = await runCli(['articles', '12', '--json'], { env });
    expect(json.stdout).not.toMatch(RAW_CONTROLS);
    const parsed = JSON.parse(json.stdout) as unknown;
    expect(JSON.stringify(parsed)).toContain('pwned');
  });
});
