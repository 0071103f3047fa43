import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits `ms` unless the simulator is closed meanwhile (`signal` aborted): resolves `false` then, so a
 * 600 s fault delay or a long generate delay never keeps the process alive after close().
 */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    throw error;
  }
}

/** A request after its body was read: handlers are plain functions of this, easy to reason about. */
export interface SimRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** Path and query as received. */
  rawUrl: string;
  headers: IncomingHttpHeaders;
  body: string;
  remoteAddress: string;
  params: Record<string, string>;
}

/** Whether a handler step returned its final response (a 4xx) instead of a value. */
export function isResponse(value: unknown): value is SimResponse {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value && 'headers' in value;
}

/** A response before it is written: fault injection rewrites it, then `server.ts` sends it. */
export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): SimResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: JSON.stringify(value) };
}

/** The API's error shape: `{ error: <message> }`. */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): SimResponse {
  return jsonResponse(status, { error: message }, headers);
}

export function noContent(headers: Record<string, string> = {}): SimResponse {
  return { status: 204, headers, body: '' };
}

export type JsonBody = { ok: true; value: Record<string, unknown> } | { ok: false; response: SimResponse };

/** Parses a JSON object body; an empty body counts as `{}` (snapshot is called without one). */
export function parseJsonObject(req: SimRequest): JsonBody {
  if (req.body.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(req.body);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return { ok: true, value: value as Record<string, unknown> };
    return { ok: false, response: errorResponse(400, 'The request body must be a JSON object.') };
  } catch {
    return { ok: false, response: errorResponse(400, 'The request body is not valid JSON.') };
  }
}

export function optionalString(body: Record<string, unknown>, field: string): string | undefined | Error {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return new Error(`\`${field}\` must be a string (got ${typeof value}).`);
  return value;
}
