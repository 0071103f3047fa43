// Issue 15.1 in a real browser: the blog's /sitemap.xml and /rss.xml, built (static) and served (on
// demand, @astrojs/node) from hostile upstream documents (an XHTML script and an SVG onload in a sitemap
// <url>, an <h:img onerror> and a stylesheet instruction in the feed, event handlers hidden in the item
// HTML), are opened in Chromium with a trap installed before any script: nothing runs. The raw upstream
// documents, served the same way, do run: the trap is shown to catch what it looks for.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import node from '@astrojs/node';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import {
  admin,
  buildSite,
  fixtureArticles,
  removeBuilds,
  RSS_ROUTE,
  SITEMAP_ROUTE,
} from '../fixtures/integration-helpers/index.js';
import { launchChromium } from './helpers/browser.js';
import { armTrap } from './helpers/trap.js';

const SITE = 'https://pro-blog.example.com';
const HOSTILE_SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="data:text/xml,x"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>${SITE}/blog/a/</loc>
<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert('sitemap script')</h:script>
<s:svg xmlns:s="http://www.w3.org/2000/svg" onload="alert('sitemap svg')"/>
<xhtml:link rel="alternate" hreflang="fr" href="${SITE}/blog/fr/" onmouseover="alert('link')"><xhtml:img src="x" onerror="alert('nested img')"/></xhtml:link>
</url></urlset>`;
const HOSTILE_RSS = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/css" href="data:text/css,*{}"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title><link>${SITE}/</link><description>d</description>
<item><title>A</title><link>${SITE}/blog/a/</link>
<h:img xmlns:h="http://www.w3.org/1999/xhtml" src="x" onerror="alert('rss img')"/>
<description><![CDATA[<img alt=" src=x onerror=alert('alt') " src="/a.png"><script>alert('desc')</script>]]></description>
<content:encoded><![CDATA[<svg onload="alert('svg')"></svg><a href="javascript:alert('js')">x</a>]]></content:encoded>
</item></channel></rss>`;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Serves a directory the way a plain static host does: .xml as text/xml, nothing else added. */
function staticHost(dir: string, extra: Record<string, string>): Handler {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const raw = extra[path];
    const send = (body: string | Buffer) => {
      res.writeHead(200, { 'content-type': path.endsWith('.xml') ? 'text/xml' : 'text/html' });
      res.end(body);
    };
    if (raw !== undefined) return send(raw);
    readFile(join(dir, path)).then(send, () => {
      res.writeHead(404);
      res.end();
    });
  };
}

async function listen(handler: Handler): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let sim: Simulator;
let browser: Browser | undefined;
const servers: Server[] = [];
let staticUrl = '';
let onDemandUrl = '';

beforeAll(async () => {
  browser = await launchChromium();
  sim = await startSimulator({ articles: 2 });
  await admin(sim.url, 'POST', 'faults', { route: SITEMAP_ROUTE, body: HOSTILE_SITEMAP });
  await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, body: HOSTILE_RSS });
  const integrations = [publisher({ siteId: 12, baseUrl: sim.url })];
  const staticOut = await buildSite('integration-ssr', {
    site: 'https://blog.example.com',
    output: 'static',
    integrations,
  });
  const host = await listen(
    staticHost(staticOut, { '/raw-sitemap.xml': HOSTILE_SITEMAP.replace(/<\?xml-stylesheet[^>]*>/, '') }),
  );
  servers.push(host.server);
  staticUrl = host.url;
  const serverOut = await buildSite('integration-ssr', {
    site: 'https://blog.example.com',
    output: 'server',
    adapter: node({ mode: 'standalone' }),
    integrations: [...integrations, fixtureArticles([], 'on-demand')],
  });
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const entry = (await import(pathToFileURL(join(serverOut, 'server', 'entry.mjs')).href)) as { handler: Handler };
  delete process.env.ASTRO_NODE_AUTOSTART;
  const ssr = await listen(entry.handler);
  servers.push(ssr.server);
  onDemandUrl = ssr.url;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await sim?.close();
  await removeBuilds();
});

/** Opens a URL with the trap armed; returns what ran and the XHTML/SVG elements the browser built. */
async function open(
  url: string,
): Promise<{ status: number | undefined; ran: string[]; active: number; headers: Record<string, string> }> {
  const page = await browser!.newPage();
  const trap = await armTrap(page);
  const response = await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(50);
  const active = await page.evaluate(
    () =>
      document.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'script').length +
      document.getElementsByTagNameNS('http://www.w3.org/2000/svg', 'svg').length +
      document.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'img').length,
  );
  const ran = [...(await trap.hits()), ...trap.dialogs];
  await page.close();
  return { status: response?.status(), ran, active, headers: response?.headers() ?? {} };
}

describe('hostile upstream feeds in Chromium (issue 15.1)', () => {
  it('the trap catches the raw upstream documents served as text/xml (the test can fail)', async () => {
    const raw = await open(`${staticUrl}/raw-sitemap.xml`);
    expect(raw.active).toBeGreaterThan(0);
    expect(raw.ran.join('\n')).toContain('alert(sitemap script)');
  });
  for (const path of ['/sitemap.xml', '/rss.xml']) {
    it(`static build, served as text/xml: ${path} runs nothing and holds no XHTML or SVG element`, async () => {
      const result = await open(`${staticUrl}${path}`);
      expect(result.status).toBe(200);
      expect(result.ran).toEqual([]);
      expect(result.active).toBe(0);
    });
    it(`on demand: ${path} runs nothing, with nosniff and a CSP sandbox`, async () => {
      const result = await open(`${onDemandUrl}${path}`);
      expect(result.status).toBe(200);
      expect(result.ran).toEqual([]);
      expect(result.active).toBe(0);
      expect(result.headers['x-content-type-options']).toBe('nosniff');
      expect(result.headers['content-security-policy']).toMatch(/(^|;\s*)sandbox(;|$)/);
    });
  }
});
