/**
 * The recognisable leak-check token the secret tests rely on: the simulator accepts extra Pro tokens
 * (`extraProTokens`, `--extra-pro-token`), they share the Pro user's rate limit, and the simulator's stats
 * report every place such a token travelled.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { runCli, startCli, waitFor } from '../cli/run-cli.js';

const TOKEN = 'btb_leakcheck_sim_1';
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ articles: 2, rateLimitOverride: 3, extraProTokens: [TOKEN] });
});
afterAll(async () => {
  await sim?.close();
});

it('an extra Pro token authenticates as the Pro user, shares its window, and is tracked wherever it travels', async () => {
  expect(sim.extraTokens.pro).toContain(TOKEN);
  const me = await fetch(`${sim.url}/api/v1/me/`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { username: string }).username).toBe('pro-user');
  await fetch(`${sim.url}/api/v1/me/`, { headers: { authorization: `Bearer ${sim.tokens.pro}` } });
  await fetch(`${sim.url}/api/v1/me/`, { headers: { authorization: `Bearer ${sim.extraTokens.pro[0]}` } });
  // Three requests of one user, whatever the token: the fourth is over the shared limit of 3.
  expect((await fetch(`${sim.url}/api/v1/me/`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(429);
  await fetch(`${sim.url}/api/sites/12/rss.xml?key=${TOKEN}`, { method: 'GET' });
  const where = sim.stats().requests.map((r) => r.tokenIn);
  expect(where.slice(0, 4)).toEqual([['header'], ['header'], ['header'], ['header']]);
  expect(where[4]).toEqual(['url']);
});

it('start option and CLI flag refuse a malformed token without echoing it', async () => {
  await expect(startSimulator({ extraProTokens: ['sk_live_secret value'] })).rejects.toThrow(
    /^`extraProTokens.0` must be a token like "btb_leakcheck_1"/,
  );
  const bad = await runCli(['simulator', '--extra-pro-token', 'sk_live_secret']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('`--extra-pro-token` must be a token like btb_leakcheck_1');
  expect(bad.stderr).not.toContain('sk_live_secret');

  const child = startCli(['simulator', '--extra-pro-token', TOKEN]);
  try {
    await waitFor(() => child.output.stdout.includes('\n'), 10_000, 'the JSON line');
    const { url } = JSON.parse(child.output.stdout.split('\n')[0]!) as { url: string };
    expect((await fetch(`${url}/api/v1/me/`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  } finally {
    child.kill('SIGTERM');
    await child.result;
  }
});
