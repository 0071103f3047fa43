// Faults on the service's images (`GET /media/*`): the simulator consults its fault list for them as for the
// API, so a test can make an image fail, arrive cut short, late, or not at all.
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { admin } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();
const PATH = '/media/sites/12/any-slug/figure-1.png';
const image = () => fetch(`${sim().url}${PATH}`);
const addFault = async (fault: Record<string, unknown>): Promise<void> => {
  expect((await admin(sim(), 'POST', 'faults', fault)).status).toBe(201);
};
const applied = async (): Promise<number[]> =>
  (await admin(sim(), 'GET', 'faults')).json().faults.map((f: { applied: number }) => f.applied);

describe('faults on GET /media/*', () => {
  it('a status fault answers in place of the image, for `times` requests, and is counted as applied', async () => {
    await addFault({ route: 'GET /media/*', status: 503, times: 1 });
    const faulted = await image();
    expect(faulted.status).toBe(503);
    expect(await faulted.json()).toEqual({ error: 'Simulated fault: HTTP 503.' });
    expect((await image()).status).toBe(200);
    expect(sim().stats().routes['GET /media/*']).toEqual({ '200': 1, '503': 1 });
  });

  it("a concrete image's path is a route: that image fails, the others do not", async () => {
    await addFault({ route: PATH, status: 404 });
    expect((await image()).status).toBe(404);
    expect((await fetch(`${sim().url}/media/sites/12/any-slug/figure-2.png`)).status).toBe(200);
    expect(await applied()).toEqual([1]);
  });

  it("'truncated' sends half of the image's bytes, which no decoder reads whole", async () => {
    const whole = Buffer.from(await (await image()).arrayBuffer());
    await addFault({ route: 'GET /media/*', body: 'truncated' });
    const cut = Buffer.from(await (await image()).arrayBuffer());
    expect(cut.length).toBe(Math.floor(whole.length / 2));
    expect(cut.equals(whole.subarray(0, cut.length))).toBe(true);
    await expect(sharp(cut).raw().toBuffer()).rejects.toThrow();
  });

  it('delayMs answers that much later; drop closes the connection without an answer', async () => {
    await addFault({ route: 'GET /media/*', delayMs: 400, times: 1 });
    const started = performance.now();
    expect((await image()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    await addFault({ route: 'GET /media/*', drop: 'before-headers', times: 1 });
    await expect(image()).rejects.toThrow();
    expect(sim().stats().routes['GET /media/*']).toEqual({ '0': 1, '200': 1 });
  });

  it('"*" (every API and feed request) leaves the images alone', async () => {
    await addFault({ route: '*', status: 500 });
    expect((await image()).status).toBe(200);
    expect(await applied()).toEqual([0]);
  });
});
