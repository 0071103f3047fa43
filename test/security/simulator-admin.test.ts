/**
 * Issue 15, item 11: the simulator's admin API answered any loopback peer, so a page open in the developer's
 * browser added a fault with a `text/plain` POST (no preflight), and a DNS-rebound name reached it with a
 * foreign Host. Now the Host must name this machine, an Origin must be this machine's, and a body must be
 * `application/json`. Raw requests (node:http) so the headers are exactly what a browser would send.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useSimulatorLifecycle } from '../support/use-simulator.js';

const sim = useSimulatorLifecycle(
  { articles: 2 },
  { beforeEach: async (s) => void (await fetch(`${s.url}/__simulator/faults`, { method: 'DELETE' })) },
);

function send(path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; text: string }> {
  const url = new URL(path, sim().url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const FAULT = JSON.stringify({ route: 'GET /api/v1/me/', status: 500 });
const faults = async () =>
  ((await (await fetch(`${sim().url}/__simulator/faults`)).json()) as { faults: unknown[] }).faults;
const own = () => new URL(sim().url).host;

describe('simulator admin API', () => {
  it('refuses a text/plain POST from another site (the no-preflight form post)', async () => {
    const response = await send(
      '/__simulator/faults',
      { host: own(), origin: 'https://evil.example', 'content-type': 'text/plain' },
      FAULT,
    );
    expect(response.status).toBe(403);
    expect(await faults()).toEqual([]);
  });

  it('refuses a text/plain body even without an Origin', async () => {
    const response = await send(
      '/__simulator/faults',
      { host: own(), 'content-type': 'text/plain;charset=UTF-8' },
      FAULT,
    );
    expect(response.status).toBe(403);
    expect(response.text).toContain('Content-Type: application/json');
    expect(await faults()).toEqual([]);
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin, even with JSON', async () => {
    const port = new URL(sim().url).port;
    const rebound = await send(
      '/__simulator/faults',
      { host: `rebind.evil.example:${port}`, 'content-type': 'application/json' },
      FAULT,
    );
    expect(rebound.status).toBe(403);
    expect(rebound.text).toContain('the Host header must name this machine');
    const bodyless = await send('/__simulator/reset', { host: own(), origin: `http://rebind.evil.example:${port}` });
    expect(bodyless.status).toBe(403);
    expect(await faults()).toEqual([]);
  });

  it('accepts JSON from a tool (no Origin) and from the simulator’s own origin', async () => {
    expect((await send('/__simulator/faults', { host: own(), 'content-type': 'application/json' }, FAULT)).status).toBe(
      201,
    );
    expect(
      (
        await send(
          '/__simulator/faults',
          {
            host: `localhost:${new URL(sim().url).port}`,
            origin: sim().url,
            'content-type': 'application/json; charset=utf-8',
          },
          FAULT,
        )
      ).status,
    ).toBe(201);
    expect(await faults()).toHaveLength(2);
  });
});
