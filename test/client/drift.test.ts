import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createClient, ResponseFormatError } from '../../src/client/index.js';
import { fault, proClient, rejection, routeCounts } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();

const LIST = 'GET /api/v1/sites/:id/articles/';
const DETAIL = 'GET /api/v1/sites/:id/articles/:slug/';

async function firstSlug(): Promise<string> {
  const [first] = await proClient(sim()).articles(12, { limit: 1 });
  return first!.slug;
}

describe('tolerant reading', () => {
  it('unknown fields are kept', async () => {
    await fault(sim(), { route: LIST, drift: { add: { reading_time: 7, author: { name: 'Ana' } } } });
    const [item] = await proClient(sim()).articles(12, { limit: 1 });
    expect(item).toMatchObject({ reading_time: 7, author: { name: 'Ana' } });
  });

  it('missing optional fields are fine (detail extras, /me/ usage)', async () => {
    const slug = await firstSlug();
    await fault(sim(), {
      route: DETAIL,
      drift: { omit: ['excerpt', 'url', 'updated_at', 'meta_description', 'featured_image', 'keywords', 'view_count'] },
    });
    await fault(sim(), { route: 'GET /api/v1/me/', drift: { omit: ['usage'] } });
    const client = proClient(sim());
    const detail = await client.article(12, slug);
    expect(detail.content).toContain('<p');
    expect(detail.excerpt).toBeUndefined();
    expect(detail.keywords).toBeUndefined();
    expect((await client.me()).usage).toBeUndefined();
  });

  it('null for optional detail fields is accepted', async () => {
    const slug = await firstSlug();
    await fault(sim(), { route: DETAIL, drift: { add: { featured_image: null, excerpt: null } } });
    const detail = await proClient(sim()).article(12, slug);
    expect(detail.featured_image).toBeNull();
  });
});

describe('ResponseFormatError names the endpoint and the field path', () => {
  it('a required field missing', async () => {
    await fault(sim(), { route: LIST, drift: { omit: ['slug'] } });
    const error = await rejection(proClient(sim()).articles(12));
    expect(error).toBeInstanceOf(ResponseFormatError);
    const e = error as ResponseFormatError;
    expect(e).toMatchObject({
      code: 'bad_response',
      status: 200,
      endpoint: 'GET /api/v1/sites/12/articles/',
      fieldPath: 'results[0].slug',
    });
    expect(e.message).toMatch(
      /^\[GET\] \/api\/v1\/sites\/12\/articles\/: 200 OK: unexpected response: field `results\[0\]\.slug`: .*expected string.*\(and \d+ more problems\)\. Check that `baseUrl`/,
    );
    // A malformed answer is not retried: asking again gives the same shape.
    expect(routeCounts(sim(), LIST)).toEqual({ '200': 1 });
  });

  it('a field of the wrong type', async () => {
    const slug = await firstSlug();
    await fault(sim(), { route: DETAIL, drift: { add: { content: 42 } } });
    await fault(sim(), { route: 'GET /api/v1/sites/', drift: { add: { id: '12' } } });
    const client = proClient(sim());
    const detail = (await rejection(client.article(12, slug))) as ResponseFormatError;
    expect(detail).toBeInstanceOf(ResponseFormatError);
    expect(detail.fieldPath).toBe('content');
    expect(detail.message).toContain('field `content`: Invalid input: expected string, received number');
    const sites = (await rejection(client.sites())) as ResponseFormatError;
    expect(sites.fieldPath).toBe('results[0].id');
    expect(sites.endpoint).toBe('GET /api/v1/sites/');
  });

  it('a renamed field is reported where it went missing', async () => {
    await fault(sim(), { route: 'GET /api/v1/me/', drift: { rename: { rate_limit_per_hour: 'requests_per_hour' } } });
    const error = (await rejection(proClient(sim()).me())) as ResponseFormatError;
    expect(error.fieldPath).toBe('rate_limit_per_hour');
  });

  it('HTML with status 200 instead of JSON', async () => {
    await fault(sim(), { route: 'GET /api/v1/me/', body: 'html' });
    const error = (await rejection(proClient(sim()).me())) as ResponseFormatError;
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.fieldPath).toBe('(body)');
    // No field to name: the message says what answered (the page's title and type) and what to check.
    expect(error.message).toBe(
      '[GET] /api/v1/me/: 200 OK: unexpected response: expected JSON, got an HTML page "200 Service Error" (text/html; charset=utf-8). ' +
        'Check that `baseUrl` points at the service itself (not a proxy, a login page or an error page).',
    );
    expect(error.hint).not.toMatch(/field path/);
    expect(routeCounts(sim(), 'GET /api/v1/me/')).toEqual({ '200': 1 });
  });

  it('a truncated or empty JSON body', async () => {
    await fault(sim(), { route: LIST, body: 'truncated', times: 1 });
    await fault(sim(), { route: 'GET /api/v1/sites/', body: 'empty', times: 1 });
    const client = proClient(sim());
    const truncated = (await rejection(client.articles(12))) as ResponseFormatError;
    expect(truncated.message).toContain('expected JSON, got a body that does not parse as JSON');
    const empty = (await rejection(client.sites())) as ResponseFormatError;
    expect(empty.message).toContain('expected JSON, got an empty body');
  });

  it('a feed answering HTML', async () => {
    await fault(sim(), { route: 'GET /api/sites/:id/rss.xml', body: 'html' });
    const error = (await rejection(createClient({ baseUrl: sim().url }).rss(12))) as ResponseFormatError;
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.endpoint).toBe('GET /api/sites/12/rss.xml');
    expect(error.message).toBe(
      '[GET] /api/sites/12/rss.xml: 200 OK: unexpected response: expected XML, got an HTML page "200 Service Error" (text/html; charset=utf-8). ' +
        'Check that `baseUrl` points at the service itself (not a proxy, a login page or an error page).',
    );
  });

  it('a page from a server that is not the service (baseUrl pointing at a website): no field path mentioned', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<!doctype html>\n<html><head>\n<title>\n  Example   Domain\n</title></head><body><p>Hello</p></body></html>',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const client = createClient({ baseUrl });
      const page = 'an HTML page "Example Domain" (text/html)';
      const hint = 'Check that `baseUrl` points at the service itself (not a proxy, a login page or an error page).';
      const feed = (await rejection(client.sitemap(12))) as ResponseFormatError;
      expect(feed).toMatchObject({ fieldPath: '(body)', hint });
      expect(feed.message).toBe(
        `[GET] /api/sites/12/sitemap.xml: 200 OK: unexpected response: expected XML, got ${page}. ${hint}`,
      );
      const api = (await rejection(
        createClient({ baseUrl, apiKey: 'btb_secret_key_1' }).sites(),
      )) as ResponseFormatError;
      expect(api.message).toBe(
        `[GET] /api/v1/sites/: 200 OK: unexpected response: expected JSON, got ${page}. ${hint}`,
      );
      expect(api.message).not.toContain('btb_secret_key_1');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a field of the wrong type still asks for its field path to be reported; a body of the wrong shape for the message', async () => {
    await fault(sim(), { route: 'GET /api/v1/sites/', drift: { add: { id: '12' } } });
    const field = (await rejection(proClient(sim()).sites())) as ResponseFormatError;
    expect(field.hint).toBe(
      'Check that `baseUrl` points at the service itself (not a proxy, a login page or an error page); if the service changed its responses, report this field path.',
    );
    await fault(sim(), { route: 'GET /api/v1/sites/:id/keywords/', json: 'keywords' });
    const shape = (await rejection(proClient(sim()).keywords(12))) as ResponseFormatError;
    expect(shape.fieldPath).toBe('(body)');
    expect(shape.message).toMatch(
      /; got a string\. Check that `baseUrl` .*; if the service changed its responses, report this message\.$/,
    );
  });
});
