/**
 * Turns a raw response into validated data. Tolerant reading: schemas keep unknown fields; a body that is
 * not JSON (an HTML page from a proxy or a login wall), or a field of the wrong type, becomes a
 * ResponseFormatError naming the endpoint, what came back, and the field path when there is one.
 */
import type { z } from 'zod';
import { statusText } from './error-map.js';
import { ResponseFormatError } from './errors.js';
import type { TransportResponse } from './transport.js';

const CHECK_BASE_URL = 'Check that `baseUrl` points at the service itself (not a proxy, a login page or an error page)';

/** The body is not the format asked for at all (an HTML page, an empty or cut-off body): something else answered. */
export const WRONG_FORMAT_HINT = `${CHECK_BASE_URL}.`;

/** The body is the format asked for, but a field is not what the API document describes. */
export const FIELD_HINT = `${CHECK_BASE_URL}; if the service changed its responses, report this field path.`;

/** The body is the format asked for, but its whole shape is not (an array where an object was expected). */
export const SHAPE_HINT = `${CHECK_BASE_URL}; if the service changed its responses, report this message.`;

export interface Call {
  method: string;
  path: string;
}

/** `results[3].slug` from `['results', 3, 'slug']`. */
export function formatFieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

function formatError(
  call: Call,
  response: TransportResponse,
  fieldPath: string,
  problem: string,
  hint: string,
): ResponseFormatError {
  const head = `[${call.method}] ${call.path}: ${response.status} ${statusText(response.status, response.statusText)}`;
  return new ResponseFormatError({
    method: call.method,
    path: call.path,
    status: response.status,
    endpoint: `${call.method} ${call.path}`,
    fieldPath,
    hint,
    message: `${head}: unexpected response: ${problem}. ${hint}`,
  });
}

export function looksLikeHtml(response: Pick<TransportResponse, 'headers' | 'text'>): boolean {
  if (/html/i.test(response.headers.get('content-type') ?? '')) return true;
  return /^\s*(\uFEFF)?<(!doctype\s+html|html|head|body)\b/i.test(response.text);
}

/** `an HTML page "Sign in" (text/html)`: the page's title says what answered in place of the service. */
export function describeHtmlPage(response: Pick<TransportResponse, 'headers' | 'text'>): string {
  const type = response.headers.get('content-type') || 'no content type';
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(response.text.slice(0, 4096))?.[1]?.replace(/\s+/g, ' ').trim();
  const named = title ? ` "${title.length > 80 ? `${title.slice(0, 79)}…` : title}"` : '';
  return `an HTML page${named} (${type})`;
}

/**
 * Throws the ResponseFormatError for a body that is not `expected` at all (`got` says what came): no field path
 * to name, the fix is the address.
 */
export function failFormat(call: Call, response: TransportResponse, expected: 'JSON' | 'XML', got: string): never {
  throw formatError(call, response, '(body)', `expected ${expected}, got ${got}`, WRONG_FORMAT_HINT);
}

export function parseJsonBody(call: Call, response: TransportResponse): unknown {
  const type = response.headers.get('content-type') || 'no content type';
  if (looksLikeHtml(response)) return failFormat(call, response, 'JSON', describeHtmlPage(response));
  if (response.text.trim() === '') return failFormat(call, response, 'JSON', 'an empty body');
  try {
    return JSON.parse(response.text);
  } catch {
    return failFormat(
      call,
      response,
      'JSON',
      `a body that does not parse as JSON (${response.text.length} characters, ${type}; cut off?)`,
    );
  }
}

/**
 * Throws the ResponseFormatError for `problem` (which says what was expected and what came) in a body of the
 * expected format: at `fieldPath`, or `(body)` for the body as a whole.
 */
export function fail(call: Call, response: TransportResponse, fieldPath: string, problem: string): never {
  throw formatError(call, response, fieldPath, problem, fieldPath === '(body)' ? SHAPE_HINT : FIELD_HINT);
}

/** What a JSON value is, for a message: `an array`, `a string`, `null`, `an object`. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function validateBody<S extends z.ZodType>(
  call: Call,
  response: TransportResponse,
  schema: S,
  body: unknown,
): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const [first, ...rest] = result.error.issues;
  const fieldPath = formatFieldPath(first?.path ?? []);
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : '';
  return fail(call, response, fieldPath, `field \`${fieldPath}\`: ${first?.message ?? 'invalid'}${more}`);
}

export function parseJsonResponse<S extends z.ZodType>(
  call: Call,
  response: TransportResponse,
  schema: S,
): z.output<S> {
  return validateBody(call, response, schema, parseJsonBody(call, response));
}
