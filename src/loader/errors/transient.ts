import { isPublisherError } from '../../client/index.js';

/**
 * Failures that a later build can fix by itself (the service or the network is having a bad moment): the
 * loaders keep the stored copy and warn. Everything else (401, 403, 404, 400, a bad option) fails.
 */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'network',
  'timeout',
  'server_error',
  'cms_unavailable',
  'rate_limited',
  'bad_response',
]);

export function isTransient(error: unknown): boolean {
  return isPublisherError(error) && TRANSIENT_CODES.has(error.code);
}
