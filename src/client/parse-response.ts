/**
 * Turns a raw response into validated data. Tolerant reading: schemas keep unknown fields; a body that is
 * not JSON (an HTML page from a proxy or a login wall), or a field of the wrong type, becomes a
 * ResponseFormatError naming the endpoint and the field path.
 */
import type { z } from 'zod';
import { statusText } from './error-map.js';
import { ResponseFormatError } from './errors.js';
import type { TransportResponse } from './transport.js';

export const FORMAT_HINT =
  'Check that `baseUrl` points at the service itself (not a proxy, a login page or an error page); if the service changed its responses, report this field path.';

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

function formatError(call: Call, response: TransportResponse, fieldPath: string, problem: string): ResponseFormatError {
  const head = `[${call.method}] ${call.path}: ${response.status} ${statusText(response.status, response.statusText)}`;
  return new ResponseFormatError({
    method: call.method,
    path: call.path,
    status: response.status,
    endpoint: `${call.method} ${call.path}`,
    fieldPath,
    hint: FORMAT_HINT,
    message: `${head}: unexpected response: ${problem}. ${FORMAT_HINT}`,
  });
}

function looksLikeHtml(response: TransportResponse): boolean {
  const type = response.headers.get('content-type') ?? '';
  if (/html/i.test(type)) return true;
  return /^\s*<(!doctype\s+html|html|head|body)\b/i.test(response.text);
}

export function parseJsonBody(call: Call, response: TransportResponse): unknown {
  const type = response.headers.get('content-type') ?? 'no content type';
  if (looksLikeHtml(response)) return fail(call, response, '(body)', `expected JSON, got HTML (${type})`);
  if (response.text.trim() === '') return fail(call, response, '(body)', 'expected JSON, got an empty body');
  try {
    return JSON.parse(response.text);
  } catch {
    return fail(
      call,
      response,
      '(body)',
      `expected JSON, got a body that does not parse as JSON (${response.text.length} characters, ${type}; cut off?)`,
    );
  }
}

/** Throws the ResponseFormatError for `problem` (which says what was expected and what came). */
export function fail(call: Call, response: TransportResponse, fieldPath: string, problem: string): never {
  throw formatError(call, response, fieldPath, problem);
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
