import { describe, expect, it } from 'vitest';
import {
  ApiError,
  CmsUnavailableError,
  createClient,
  ForbiddenError,
  isPublisherError,
  NotFoundError,
  PaymentRequiredError,
  PublisherError,
  RateLimitError,
  ServerError,
  UnauthorizedError,
} from '../../src/client/index.js';
import { fault, proClient, rejection, routeCounts } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();

describe('one error class per status, with the hint of the API document', () => {
  it('401 -> UnauthorizedError: send the Authorization header', async () => {
    const client = createClient({ baseUrl: sim().url, apiKey: 'btb_unknown_token_1' });
    const error = await rejection(client.me());
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toBeInstanceOf(PublisherError);
    const e = error as UnauthorizedError;
    expect(e).toMatchObject({
      name: 'UnauthorizedError',
      status: 401,
      code: 'unauthorized',
      method: 'GET',
      path: '/api/v1/me/',
    });
    expect(e.apiMessage).toEqual(expect.any(String));
    // The client reads no environment variable: the fix is its own option.
    expect(e.hint).toBe(
      'Send the header `Authorization: Bearer <API_KEY>` with a valid token: create one in the dashboard at /account/api-keys (it starts with btb_) and pass it to createClient({ apiKey }).',
    );
    expect(e.message).toBe(`[GET] /api/v1/me/: 401 Unauthorized: ${e.apiMessage!.replace(/\.$/, '')}. ${e.hint}`);
    expect(isPublisherError(e)).toBe(true);
    expect(routeCounts(sim(), 'GET /api/v1/me/')).toEqual({ '401': 1 });
  });

  it('403 -> ForbiddenError for the Free and Solo plans: move to Pro or higher', async () => {
    for (const apiKey of [sim().tokens.free, sim().tokens.solo]) {
      const error = await rejection(createClient({ baseUrl: sim().url, apiKey }).sites());
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({ status: 403, code: 'forbidden', path: '/api/v1/sites/' });
      expect((error as ForbiddenError).hint).toContain('move to Pro or higher');
      expect(error.message).toMatch(/^\[GET\] \/api\/v1\/sites\/: 403 Forbidden: .+move to Pro or higher\.$/);
    }
  });

  it('402 -> PaymentRequiredError once the monthly quota and the credits are spent', async () => {
    const client = proClient(sim());
    // Pro: 30 articles a month, then 2 credits.
    for (let i = 0; i < 32; i++) await client.generate(12, { topic: `topic ${i}`, length: 'short' });
    const error = await rejection(client.generate(12, { topic: 'one too many' }));
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error).toMatchObject({
      status: 402,
      code: 'quota_exhausted',
      method: 'POST',
      path: '/api/v1/sites/12/generate/',
    });
    expect((error as PaymentRequiredError).hint).toContain('buy credits or wait for the first day of the month');
    expect(error.message).toMatch(/^\[POST\] \/api\/v1\/sites\/12\/generate\/: 402 Payment Required: /);
  });

  it('404 from something else at the address (an HTML page) or on a path naming no site: check baseUrl, not the id', async () => {
    // Found by a trial: a wrong base URL answering 404 was reported as "Check the site id or the article slug".
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not Found</h1></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const wrong = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'btb_sim_pro_1' });
      const noEndpoint =
        'Nothing answers this call at that address: check `baseUrl`, the service address (scheme, host and port, without /api/v1 or another path), then the site id.';
      for (const call of [wrong.me(), wrong.articles(12)]) {
        const error = await rejection(call);
        expect(error).toBeInstanceOf(NotFoundError);
        expect((error as NotFoundError).hint).toBe(noEndpoint);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // The service's own 404 on a call naming no site (here: a path prefix it does not have) says the same.
    const prefixed = createClient({ baseUrl: `${sim().url}/foo`, apiKey: sim().tokens.pro });
    expect(((await rejection(prefixed.me())) as NotFoundError).hint).toMatch(/^Nothing answers this call/);
  });

  it('404 -> NotFoundError for another user’s site or an unknown slug, not retried', async () => {
    const client = proClient(sim());
    const otherSite = await rejection(client.articles(21));
    expect(otherSite).toBeInstanceOf(NotFoundError);
    expect(otherSite).toMatchObject({ status: 404, code: 'not_found', path: '/api/v1/sites/21/articles/' });
    expect((otherSite as NotFoundError).hint).toContain('Check the site id or the article slug');
    const unknownSlug = await rejection(client.article(12, 'no-such-article'));
    expect(unknownSlug).toBeInstanceOf(NotFoundError);
    expect(unknownSlug.message).toMatch(/^\[GET\] \/api\/v1\/sites\/12\/articles\/no-such-article\/: 404 Not Found/);
    expect(routeCounts(sim(), 'GET /api/v1/sites/:id/articles/:slug/')).toEqual({ '404': 1 });
    expect(client.requestCount).toBe(2);
  });

  it('429 -> RateLimitError with retryAfter and "wait N seconds"', async () => {
    await fault(sim(), {
      route: 'GET /api/v1/sites/',
      status: 429,
      retryAfter: 42,
      json: { error: 'Rate limit exceeded.' },
    });
    const error = await rejection(proClient(sim()).sites());
    expect(error).toBeInstanceOf(RateLimitError);
    const e = error as RateLimitError;
    expect(e).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 42, apiMessage: 'Rate limit exceeded.' });
    expect(e.hint).toBe(
      'Wait 42 seconds, cache responses on the client, or move to a higher plan (the limit is per user, shared by all tokens).',
    );
    expect(e.message).toBe(`[GET] /api/v1/sites/: 429 Too Many Requests: Rate limit exceeded. ${e.hint}`);
  });

  it('502 -> CmsUnavailableError: check the site’s CMS credentials (GET retried, POST not)', async () => {
    const client = proClient(sim(), { retries: 1 });
    const list = await rejection(client.articles(13));
    expect(list).toBeInstanceOf(CmsUnavailableError);
    expect(list).toMatchObject({ status: 502, code: 'cms_unavailable' });
    expect((list as CmsUnavailableError).hint).toContain("check the site's CMS credentials");
    expect(routeCounts(sim(), 'GET /api/v1/sites/:id/articles/')).toEqual({ '502': 2 });
    const generate = await rejection(client.generate(13, { topic: 'x' }));
    expect(generate).toBeInstanceOf(CmsUnavailableError);
    // The CMS may have failed at the publishing step, after the article was generated: no plain "retry later".
    expect((generate as CmsUnavailableError).hint).toBe(
      "The site's remote CMS is unreachable: check the site's CMS credentials in the dashboard. The service may already have generated and published the article (and used one quota unit or credit): check `client.articles(13)` for it before retrying.",
    );
    // The same failure as the GET's, with the retry advice swapped for the look before retrying.
    expect((list as CmsUnavailableError).hint).toBe(
      "The site's remote CMS is unreachable: retry later and check the site's CMS credentials in the dashboard.",
    );
    expect(routeCounts(sim(), 'POST /api/v1/sites/:id/generate/')).toEqual({ '502': 1 });
  });

  it('a 5xx on generate: the article may exist, so the hint says to look for it before retrying', async () => {
    const client = proClient(sim());
    const before = (await client.articles(12)).length;
    // The handler runs (it generates and publishes), then the answer is a 500: the service failed after the work.
    await fault(sim(), { route: 'POST /api/v1/sites/:id/generate/', status: 500, drift: {}, times: 1 });
    const error = await rejection(client.generate(12, { topic: 'composting' }));
    expect(error).toBeInstanceOf(ServerError);
    const inDoubt =
      'The service may already have generated and published the article (and used one quota unit or credit): check `client.articles(12)` for it before retrying.';
    // What failed (as the generic 5xx hint says it), then the look before retrying instead of "retry later".
    expect(error).toMatchObject({ status: 500, code: 'server_error', hint: `The service failed. ${inDoubt}` });
    expect(error.message).toBe(
      `[POST] /api/v1/sites/12/generate/: 500 Internal Server Error. The service failed. ${inDoubt}`,
    );
    // Not retried, and the article the hint warns about is there: a blind retry would publish a second one.
    expect(routeCounts(sim(), 'POST /api/v1/sites/:id/generate/')).toEqual({ '500': 1 });
    expect((await client.articles(12)).length).toBe(before + 1);
  });

  it('other 5xx -> ServerError', async () => {
    await fault(sim(), { route: 'GET /api/v1/me/', status: 500 });
    const error = await rejection(proClient(sim(), { retries: 0 }).me());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, code: 'server_error', hint: 'The service failed: retry later.' });
    expect(error.message).toBe(
      '[GET] /api/v1/me/: 500 Internal Server Error: Simulated fault: HTTP 500. The service failed: retry later.',
    );
  });

  it('other 4xx -> ApiError with the service’s validation message', async () => {
    const error = await rejection(proClient(sim()).generate(12, { topic: 'x', length: 'huge' as 'long' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'bad_request', method: 'POST' });
    expect((error as ApiError).apiMessage).toContain('`length` must be one of short, medium, long');
    expect(routeCounts(sim(), 'POST /api/v1/sites/:id/generate/')).toEqual({ '400': 1 });
  });

  it('an HTML error page on an error status still maps by status, without an apiMessage', async () => {
    await fault(sim(), { route: 'GET /api/v1/me/', status: 503, body: 'html' });
    const error = await rejection(proClient(sim(), { retries: 0 }).me());
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).apiMessage).toBeUndefined();
    expect(error.message).toBe('[GET] /api/v1/me/: 503 Service Unavailable. The service failed: retry later.');
  });
});
