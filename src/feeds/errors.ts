/**
 * Why an upstream XML document was refused. Stable codes so callers (the routes, the loader, the watcher)
 * can decide what to do without parsing the message.
 */
export type XmlSafetyReason =
  | 'empty'
  | 'too-large'
  | 'html'
  | 'doctype'
  | 'not-well-formed'
  | 'truncated'
  | 'too-complex'
  | 'unexpected-root'
  | 'sitemap-index'
  | 'encoding'
  | 'index-part';

/**
 * Thrown for any upstream sitemap/RSS document that is not safe or not usable: too large, declaring a
 * DOCTYPE/entities, not well-formed, truncated, an HTML error page or the wrong kind of document.
 * The message names the URL and what was wrong; no entity is ever expanded before this is thrown.
 */
export class XmlSafetyError extends Error {
  override readonly name = 'XmlSafetyError';
  /** The upstream URL the document came from. */
  readonly url: string;
  /** A stable code for what was wrong. */
  readonly reason: XmlSafetyReason;
  /** 1-based line/column of the problem, when known. */
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(opts: {
    url: string;
    kind: string;
    reason: XmlSafetyReason;
    detail: string;
    line?: number;
    column?: number;
  }) {
    const where =
      opts.line !== undefined
        ? ` (line ${opts.line}${opts.column !== undefined ? `, column ${opts.column}` : ''})`
        : '';
    super(`[astro-content-publisher] The ${opts.kind} at ${opts.url} is not safe to parse: ${opts.detail}${where}`);
    this.url = opts.url;
    this.reason = opts.reason;
    this.line = opts.line;
    this.column = opts.column;
  }
}

export function isXmlSafetyError(error: unknown): error is XmlSafetyError {
  return error instanceof XmlSafetyError;
}
