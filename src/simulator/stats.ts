import { ALL_TOKENS } from './accounts.js';

export interface SimulatorRequestRecord {
  method: string;
  /** The path alone, without the query string (tests match on it). */
  path: string;
  /**
   * The query string without its `?` (`language=en&limit=50&offset=50`), when the request had one; a token in
   * it shows as `btb_***` (`tokenIn` has `'url'`).
   */
  query?: string;
  route: string;
  /** When the request reached the service, in ms since the epoch on the simulator's clock (as its rate limit counts). */
  at: number;
  /** HTTP status sent; 0 when the connection was dropped before the headers (fault injection). */
  status: number;
  /** The request carried an Authorization header. */
  authorization: boolean;
  /** Where a token string appeared: 'header', 'url', 'body'. */
  tokenIn: string[];
  /** An injected fault shaped the answer (its status, body, delay or a dropped connection). */
  faulted?: true;
}

export interface SimulatorStats {
  /** Requests under /api/v1/ (whatever the status). */
  authenticated: number;
  /** Requests to the public feeds /api/sites/<id>/(sitemap|rss).xml. */
  public: number;
  /** Route key -> status -> count, e.g. { "GET /api/v1/sites/:id/articles/": { "200": 3, "429": 1 } }. */
  routes: Record<string, Record<string, number>>;
  requests: SimulatorRequestRecord[];
}

/** Any known token, or anything shaped like an API key (leak tests use their own `btb_leakcheck_...`). */
const TOKEN_LIKE = /btb_[A-Za-z0-9_-]{4,}/;

export function containsToken(text: string): boolean {
  return TOKEN_LIKE.test(text) || ALL_TOKENS.some((token) => text.includes(token));
}

/** The query of a request as recorded: stats are printed and compared in tests, a leaked key must not spread. */
export function recordedQuery(search: string): { query?: string } {
  const query = search.replace(/^\?/, '');
  if (query === '') return {};
  const masked = ALL_TOKENS.reduce((text, token) => text.replaceAll(token, 'btb_***'), query);
  return { query: masked.replace(new RegExp(TOKEN_LIKE.source, 'g'), 'btb_***') };
}

/** The last requests kept in `requests` (counters are never capped): bounds memory in long benchmarks. */
const MAX_RECORDS = 20_000;

export class StatsCollector {
  private data: SimulatorStats = { authenticated: 0, public: 0, routes: {}, requests: [] };

  record(kind: 'authenticated' | 'public' | 'other', entry: SimulatorRequestRecord): void {
    if (kind === 'authenticated') this.data.authenticated += 1;
    if (kind === 'public') this.data.public += 1;
    const statuses = (this.data.routes[entry.route] ??= {});
    statuses[String(entry.status)] = (statuses[String(entry.status)] ?? 0) + 1;
    this.data.requests.push(entry);
    if (this.data.requests.length > MAX_RECORDS) this.data.requests.splice(0, this.data.requests.length - MAX_RECORDS);
  }

  snapshot(): SimulatorStats {
    return structuredClone(this.data);
  }

  reset(): void {
    this.data = { authenticated: 0, public: 0, routes: {}, requests: [] };
  }
}
