/**
 * The invalidation endpoint (`publisher({ invalidate: true })`, POST `/_publisher/invalidate`): purges Astro's
 * route cache by tag (`context.cache.invalidate`) and this process's own copies of the same content (the live
 * loader's answers, the feed routes' upstream copies), for `content-publisher watch --invalidate`.
 *
 * Anyone can reach the URL, and an invalidation makes the next visitors' requests render again (each one an
 * authenticated API call of the owner's hourly budget), so it refuses everything without the shared secret
 * `PUBLISHER_INVALIDATE_TOKEN`: none configured, 503; no `Authorization: Bearer`, 401; another token, 403.
 * The token is compared in constant time and never echoed or logged. Web APIs only (edge adapters too).
 */
import { z } from 'zod';
import { readBodyCapped } from '../../client/read-body.js';

export const INVALIDATE_TOKEN_ENV = 'PUBLISHER_INVALIDATE_TOKEN';
/** A shorter token is refused as not configured: it would be guessable. */
export const MIN_TOKEN_LENGTH = 16;
const MAX_BODY_BYTES = 64 * 1024;
/** Longer than any tag of this package (MAX_TAG_LENGTH, 128): a page's tags of its owner's may be longer. */
export const MAX_ENDPOINT_TAG_LENGTH = 256;

/** The part of Astro's APIContext the handler uses (`cache` exists from Astro 7). */
export interface InvalidateContext {
  request: Request;
  cache?: { enabled: boolean; invalidate(options: { tags: string[] }): Promise<void> } | undefined;
}

export interface InvalidateDependencies {
  /**
   * The configured token (read per request: edge adapters give their environment to a request only);
   * white space around it is not part of it.
   */
  token: string | undefined;
  /** Drops this process's own copies of what the tags name. */
  /** Drops this process's copies; may wait for the live loader's new list (see local-invalidation.ts). */
  invalidateLocally: (tags: string[]) => void | Promise<void>;
  log?: (message: string) => void;
}

const bodySchema = z.strictObject({
  tags: z
    .array(
      z
        .string()
        .min(1)
        .max(MAX_ENDPOINT_TAG_LENGTH)
        .regex(/^[^\s,]+$/, { error: 'a tag holds no comma or white space' }),
    )
    .min(1)
    .max(1_000),
});

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(`${JSON.stringify(body)}\n`, {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

/** Equal strings, in a time that does not depend on where they differ (both are hashed to 32 bytes first). */
export async function sameSecret(sent: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all(
    [sent, expected].map(async (value) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(value)))),
  );
  let difference = 0;
  for (let i = 0; i < a!.length; i++) difference |= a![i]! ^ b![i]!;
  return difference === 0;
}

export async function handleInvalidate(context: InvalidateContext, deps: InvalidateDependencies): Promise<Response> {
  const { request } = context;
  if (request.method !== 'POST')
    return json(405, { error: 'Use POST with a JSON body { "tags": [...] }.' }, { Allow: 'POST' });
  // Trimmed like `watch --invalidate` trims it: a secret stored with a final newline (a file mounted as the
  // variable) is the same token on both sides.
  const token = deps.token?.trim();
  if (token === undefined || token.length < MIN_TOKEN_LENGTH)
    return json(503, {
      error:
        token === undefined || token === ''
          ? `Invalidation is not configured: set ${INVALIDATE_TOKEN_ENV} (a random secret of at least ${MIN_TOKEN_LENGTH} characters) in the server's environment.`
          : `Invalidation is refused: ${INVALIDATE_TOKEN_ENV} is set but shorter than ${MIN_TOKEN_LENGTH} characters (guessable). Set a random secret of at least ${MIN_TOKEN_LENGTH} characters on the server and where watch runs.`,
    });
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(request.headers.get('authorization') ?? '');
  if (!match)
    return json(
      401,
      { error: `Send the token as Authorization: Bearer <${INVALIDATE_TOKEN_ENV}>.` },
      { 'WWW-Authenticate': 'Bearer realm="astro-content-publisher"' },
    );
  if (!(await sameSecret(match[1]!, token))) return json(403, { error: 'The token is not the configured one.' });

  // A declared Content-Length over the cap is refused before a byte is read; a longer stream is cut there.
  const read = await readBodyCapped(request, MAX_BODY_BYTES);
  if (!read.ok)
    return json(413, {
      error: `The body is larger than ${MAX_BODY_BYTES} bytes: split the tags over several requests.`,
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text);
  } catch {
    return json(400, { error: 'The body is not JSON: send { "tags": ["publisher:site-12:my-slug", ...] }.' });
  }
  const body = bodySchema.safeParse(parsed);
  if (!body.success) {
    const issue = body.error.issues[0]!;
    const where = issue.path.length ? `\`${issue.path.join('.')}\`` : 'the body';
    return json(400, {
      error: `${where}: ${issue.message}. Send { "tags": [...] }: 1 to 1000 tags of at most ${MAX_ENDPOINT_TAG_LENGTH} characters.`,
    });
  }
  const tags = [...new Set(body.data.tags)];
  // The live loader lists again first: a feed or page rendered right after this answer links by the new list.
  await deps.invalidateLocally(tags);
  const routeCache = context.cache?.enabled === true;
  if (routeCache) {
    try {
      await context.cache!.invalidate({ tags });
    } catch (error) {
      deps.log?.(
        `[astro-content-publisher] The cache provider failed to invalidate ${tags.length} tag(s): ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      );
      return json(502, {
        error: "The cache provider failed to invalidate the tags (details in the server's log). Retry later.",
      });
    }
  }
  return json(200, { invalidated: tags, routeCache });
}
