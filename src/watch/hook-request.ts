/**
 * Deploy hooks by name: the request each host expects (method, body, headers), built as a pure function so
 * that it is tested without the network. The hook URL and any token are secrets: nothing here returns them
 * for display (see `describeHookUrl`).
 */

export const HOOK_PROVIDERS = ['generic', 'netlify', 'vercel', 'cloudflare', 'github'] as const;
export type HookProvider = (typeof HOOK_PROVIDERS)[number];

/** The host's deploy hook recognised from its URL; anything else is a generic JSON POST. */
export function inferHookProvider(url: string): HookProvider {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'generic';
  }
  const { hostname, pathname } = parsed;
  if (hostname === 'api.netlify.com' && pathname.startsWith('/build_hooks/')) return 'netlify';
  if (hostname === 'api.vercel.com' && pathname.startsWith('/v1/integrations/deploy/')) return 'vercel';
  if (hostname === 'api.cloudflare.com' && pathname.includes('/pages/webhooks/deploy_hooks/')) return 'cloudflare';
  if (hostname === 'api.github.com' && /^\/repos\/[^/]+\/[^/]+\/dispatches\/?$/.test(pathname)) return 'github';
  return 'generic';
}

/** `github:OWNER/REPO` as a hook: the repository_dispatch endpoint of that repository. */
export function expandHookShorthand(value: string): string {
  const match = /^github:([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(value.trim());
  return match ? `https://api.github.com/repos/${match[1]}/${match[2]}/dispatches` : value;
}

export interface HookInput {
  url: string;
  provider: HookProvider;
  /** Bearer token (GitHub's repository_dispatch needs one). */
  token?: string | undefined;
  /** GitHub `event_type`. @default 'content-published' */
  eventType?: string | undefined;
  site: number;
  /** How many articles changed (the feed and the sitemap both report one edit: counted once). */
  changes: number;
}

export interface HookRequest {
  url: string;
  init: { method: 'POST'; headers: Record<string, string>; body?: string };
}

/**
 * The request to send. Credentials in the URL (`https://user:pass@host/…`) are moved to a Basic
 * `Authorization` header: fetch refuses them in the URL, and a URL is what ends up in logs.
 */
export function buildHookRequest(input: HookInput): HookRequest {
  const url = new URL(input.url);
  const headers: Record<string, string> = { 'user-agent': 'content-publisher-watch' };
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const summary = { source: 'content-publisher watch', site: input.site, changes: input.changes };
  switch (input.provider) {
    case 'netlify':
      // Netlify shows `trigger_title` in its deploy log and hands the body to the build as INCOMING_HOOK_BODY.
      url.searchParams.set(
        'trigger_title',
        `content-publisher watch: ${input.changes} change(s) on site ${input.site}`,
      );
      return {
        url: url.href,
        init: {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(summary),
        },
      };
    case 'vercel':
    case 'cloudflare':
      // Both take an empty POST: the hook URL alone names the project and branch.
      return { url: url.href, init: { method: 'POST', headers } };
    case 'github':
      return {
        url: url.href,
        init: {
          method: 'POST',
          headers: {
            ...headers,
            accept: 'application/vnd.github+json',
            'x-github-api-version': '2022-11-28',
            'content-type': 'application/json',
            ...(input.token ? { authorization: `Bearer ${input.token}` } : {}),
          },
          body: JSON.stringify({ event_type: input.eventType ?? 'content-published', client_payload: summary }),
        },
      };
    case 'generic':
      return {
        url: url.href,
        init: {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(summary),
        },
      };
  }
}

/** A network failure in words that cannot carry the URL: fetch's own message and cause may contain it. */
export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' && /^[A-Z_]{3,40}$/.test(cause.code) ? cause.code : undefined;
  return code ? `could not be reached (${code})` : 'could not be reached';
}
