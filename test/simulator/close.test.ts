// close() must not wait for (or leave behind) the timers of delayed responses: a fault can delay a
// response by up to 600 s and generate by `generateDelayMs`.
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';

describe('simulator close()', () => {
  it('ends pending fault delays and generate delays at once', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const timersBefore = timers();
    const sim = await startSimulator({ generateDelayMs: 600_000, articles: 2 });
    const fault = await fetch(`${sim.url}/__simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'GET /api/sites/:id/rss.xml', delayMs: 600_000 }),
    });
    expect(fault.status).toBe(201);
    const delayed = fetch(`${sim.url}/api/sites/12/rss.xml`).then(
      (r) => r.status,
      (error: unknown) => error,
    );
    const generating = fetch(`${sim.url}/api/v1/sites/12/generate/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.tokens.pro}`, 'content-type': 'application/json' },
      body: JSON.stringify({ topic: 'slow', type: 'news', length: 'short' }),
    }).then(
      (r) => r.status,
      (error: unknown) => error,
    );
    await new Promise((r) => setTimeout(r, 200));
    const started = performance.now();
    await sim.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    // Both requests end (the connection is closed) rather than hanging until their delay elapses.
    expect(await delayed).toBeInstanceOf(Error);
    expect(await generating).toBeInstanceOf(Error);
    // No 600 s timer is left behind to keep the process alive.
    await new Promise((r) => setImmediate(r));
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('refuses a generate delay beyond 600 s, naming the option', async () => {
    await expect(startSimulator({ generateDelayMs: 3_600_000 })).rejects.toThrow(/generateDelayMs/);
  });
});
